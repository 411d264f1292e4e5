// Regenerates every trace in manifest.json with `sysgym trace`, and records what each capture
// produced (samples, instructions, misses, modeled times, footprint) in captured.json.
// Usage: node data/real/regenerate.mjs [path/to/sysgym] [name ...]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const sysgym = process.argv[2] ?? path.join(here, '../../build/native-release/sysgym');
const only = process.argv.slice(3);
const manifest = JSON.parse(fs.readFileSync(path.join(here, 'manifest.json'), 'utf8'));
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-real-'));
const fill = (arg) => arg.replaceAll('{work}', work).replaceAll('{data}', here);
const capturedFile = path.join(here, 'captured.json');
const captured = fs.existsSync(capturedFile) ? JSON.parse(fs.readFileSync(capturedFile, 'utf8')) : {};

for (const t of manifest.traces) {
  if (only.length > 0 && !only.includes(t.name)) continue;
  if (t.prepare.length > 0) execFileSync(t.prepare[0], t.prepare.slice(1).map(fill), { stdio: 'inherit' });
  const c = manifest.capture;
  const args = ['trace', '--llc-size', c.llc_size, '--llc-ways', String(c.llc_ways), '--line', String(c.line),
    '--timing', c.timing, '--format', c.format, '--period', String(t.period), '--json', '-o', path.join(here, t.name),
    '--', ...t.command.map(fill)];
  console.error(`capturing ${t.name}: ${t.command.join(' ')}`);
  const out = execFileSync(sysgym, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 30 });
  const report = JSON.parse(out.slice(out.lastIndexOf('{\n')));
  const inspect = JSON.parse(execFileSync(sysgym, ['inspect', '--json', path.join(here, `${t.name}.ddr.${c.format}`)],
    { encoding: 'utf8' }));
  captured[t.name] = {
    command: t.command, period: t.period, cache: `${c.llc_size}, ${c.llc_ways}-way, ${c.line} B lines`, timing: c.timing,
    instructions: report.instructions, llc_misses: report.llc_misses, samples: report.samples,
    ddr_ms: report.ddr_ms, hbm_ms: report.hbm_ms, sampled_footprint_bytes: inspect.sampled_footprint_bytes,
    regions: inspect.regions,
  };
  fs.writeFileSync(capturedFile, `${JSON.stringify(captured, null, 2)}\n`);
}
fs.rmSync(work, { recursive: true, force: true });

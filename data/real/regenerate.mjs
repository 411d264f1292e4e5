// Regenerates every trace in manifest.json with `sysgym trace`, and records what each capture
// produced (samples, instructions, misses, phases, modeled times, footprint) in captured.json.
// Each program runs in a fresh directory ({work}); {data} is this folder.
// Usage: node data/real/regenerate.mjs [path/to/sysgym] [name ...]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const sysgym = path.resolve(process.argv[2] ?? path.join(here, '../../build/native-release/sysgym'));
const only = process.argv.slice(3);
const manifest = JSON.parse(fs.readFileSync(path.join(here, 'manifest.json'), 'utf8'));
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-real-'));
// OpenMPI programs (hpcc) refuse to start as root unless told it is on purpose.
const env = { ...process.env, OMPI_ALLOW_RUN_AS_ROOT: '1', OMPI_ALLOW_RUN_AS_ROOT_CONFIRM: '1' };
const capturedFile = path.join(here, 'captured.json');
const captured = fs.existsSync(capturedFile) ? JSON.parse(fs.readFileSync(capturedFile, 'utf8')) : {};

for (const t of manifest.traces) {
  if (only.length > 0 && !only.includes(t.name)) continue;
  const work = path.join(scratch, t.name);
  fs.mkdirSync(work);
  const fill = (arg) => arg.replaceAll('{work}', work).replaceAll('{data}', here);
  if (t.prepare.length > 0) {
    execFileSync(t.prepare[0], t.prepare.slice(1).map(fill), { stdio: 'inherit', cwd: work, env });
  }
  const c = manifest.capture;
  const args = ['trace', '--llc-size', c.llc_size, '--llc-ways', String(c.llc_ways), '--line', String(c.line),
    '--timing', c.timing, '--format', c.format, '--period', String(t.period), ...(t.trace_args ?? []), '--json',
    '-o', path.join(here, t.name), '--', ...t.command.map(fill)];
  console.error(`capturing ${t.name}: ${t.command.join(' ')}`);
  const out = execFileSync(sysgym, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], cwd: work, env });
  // Programs without markers print to the same stdout, maybe without a last newline: the report
  // is the last object whose first key is indented by two spaces.
  const report = JSON.parse(out.slice(out.lastIndexOf('{\n  "')));
  const inspect = JSON.parse(execFileSync(sysgym, ['inspect', '--json', path.join(here, `${t.name}.ddr.${c.format}`)],
    { encoding: 'utf8' }));
  captured[t.name] = {
    command: t.command, trace_args: t.trace_args ?? [], period: t.period,
    cache: `${c.llc_size}, ${c.llc_ways}-way, ${c.line} B lines`, timing: c.timing,
    instructions: report.instructions, skipped_instructions: report.skipped_instructions, llc_misses: report.llc_misses,
    samples: report.samples, phases: report.phases.filter((p) => p.kept).map((p) => p.name),
    ddr_ms: report.ddr_ms, hbm_ms: report.hbm_ms, sampled_footprint_bytes: inspect.sampled_footprint_bytes,
    regions: inspect.regions,
  };
  fs.writeFileSync(capturedFile, `${JSON.stringify(captured, null, 2)}\n`);
}
fs.rmSync(scratch, { recursive: true, force: true });

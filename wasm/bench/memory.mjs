// Peak memory of one memtier episode on a large trace pair, natively and in WebAssembly, in one
// run: the native tool under /usr/bin/time (its maximum resident set) against Node running the
// npm package (the process's own maximum resident set: the wasm heap plus Node itself, measured
// alone first). Two inputs: a synthetic pair generated inside the core, and a pair of binary
// trace files read from disk (natively by name, in wasm as bytes handed to addTraces).
// Usage: node wasm/bench/memory.mjs [samples (default 5000000)] [runs (default 3)]
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const native = path.join(root, 'build/native-release/sysgym');
const pkg = path.join(root, 'build/wasm/package/index.mjs');
const samples = Number(process.argv[2] ?? 5_000_000);
const runs = Number(process.argv[3] ?? 3);
const mib = (kib) => (kib / 1024).toFixed(0);

function nativePeakKib(args) {
  const r = spawnSync('/usr/bin/time', ['-f', '%M', native, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`native ${args.join(' ')} failed: ${r.stderr}`);
  return Number(r.stderr.trim().split('\n').pop());
}

// A Node child that loads the package, runs `body` and prints its peak resident set in KiB.
function wasmPeakKib(body) {
  const script = `import * as sysgym from ${JSON.stringify(pkg)};
import fs from 'node:fs';
const s = await sysgym.load();
${body}
console.log(process.resourceUsage().maxRSS);`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return Number(out.trim().split('\n').pop());
}

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-memory-'));
const prefix = path.join(scratch, 'big');
execFileSync(native, ['memtier', 'synth', '--pattern', 'phased', '--samples', String(samples), '--format', 'bin',
  '-o', prefix], { stdio: 'ignore' });
const fileBytes = fs.statSync(`${prefix}.ddr.bin`).size + fs.statSync(`${prefix}.hbm.bin`).size;
const episode = "{ env: 'memtier-v0', config: { trace: TRACE }, policy: 'all-ddr', seed: 0 }";
const cases = [
  { name: `synth:phased:${samples} (generated in the core)`,
    native: ['run', 'memtier', `trace=synth:phased:${samples}`, '--policy', 'all-ddr', '--json'],
    wasm: `s.runEpisode(${episode.replace('TRACE', `'synth:phased:${samples}'`)});` },
  { name: `binary pair from disk (${(fileBytes / 2 ** 20).toFixed(0)} MiB)`,
    native: ['run', 'memtier', `trace=${prefix}`, '--policy', 'all-ddr', '--json'],
    wasm: `s.memtier.addTraces('big', fs.readFileSync('${prefix}.ddr.bin'), fs.readFileSync('${prefix}.hbm.bin'));
s.runEpisode(${episode.replace('TRACE', "'big'")});` },
];

const baseline = Math.min(...Array.from({ length: runs }, () => wasmPeakKib('')));
console.log(`peak resident memory, min over ${runs} runs (MiB); Node with the package loaded and idle: ${mib(baseline)} MiB`);
for (const c of cases) {
  const n = Math.min(...Array.from({ length: runs }, () => nativePeakKib(c.native)));
  const w = Math.min(...Array.from({ length: runs }, () => wasmPeakKib(c.wasm)));
  console.log(`  ${c.name}: native ${mib(n)}, wasm ${mib(w)} (${mib(w - baseline)} above idle Node), ` +
    `wasm / native ${((w - baseline) / n).toFixed(2)}x`);
}
fs.rmSync(scratch, { recursive: true, force: true });

// The looptune executor in WebAssembly against the native one, both sides in one run:
//   node wasm/bench/looptune_bench.mjs [RUNS]
// The executor's benchmark nests (each kernel untuned and as two searches tune it: the same
// nests in both builds) measured by the npm package in this Node and by `sysgym looptune bench
// --executor`, alternating, RUNS times each (default 3): GFLOPS as min / median over the runs
// (each run's figure the fastest of its repetitions), and the ratio of the medians.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { load } = await import(path.join(process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package'), 'index.mjs'));
const native = process.env.SYSGYM_NATIVE ?? path.join(root, 'build/native-release/sysgym');
const runs = Number(process.argv[2] ?? 3);
const sysgym = await load();

function nativeRun() {
  const r = spawnSync(native, ['looptune', 'bench', '--executor', '--json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sysgym looptune bench --executor failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const wasm = [];
const nat = [];
for (let i = 0; i < runs; i += 1) {
  wasm.push(sysgym.looptune.executorBench());
  nat.push(nativeRun());
}
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const fmt = (v) => `${Math.min(...v).toFixed(2).padStart(6)} / ${median(v).toFixed(2).padStart(6)}`;
console.log(`looptune executor, ${runs} runs each (GFLOPS min / median; wasm/native of the medians)`);
console.log(`${'kernel'.padEnd(22)} ${'found by'.padEnd(9)} ${'micro-kernel'.padEnd(15)} ${'native'.padStart(15)} ${'wasm'.padStart(15)}  ratio`);
const ratios = [];
for (let n = 0; n < wasm[0].length; n += 1) {
  const w = wasm.map((r) => r[n].gflops);
  const x = nat.map((r) => r[n].gflops);
  const same = nat[0][n].kernel === wasm[0][n].kernel && JSON.stringify(nat[0][n].loops) === JSON.stringify(wasm[0][n].loops);
  if (!same) throw new Error(`nest ${n} differs between the builds: the searches must decide alike`);
  ratios.push(median(w) / median(x));
  const e = wasm[0][n];
  console.log(`${e.kernel.padEnd(22)} ${e.found_by.padEnd(9)} ${e.micro_kernel.padEnd(15)} ${fmt(x)} ${fmt(w)}  ${ratios.at(-1).toFixed(2)}`);
}
const geo = Math.exp(ratios.reduce((s, r) => s + Math.log(r), 0) / ratios.length);
console.log(`geometric mean wasm/native: ${geo.toFixed(2)} (worst ${Math.min(...ratios).toFixed(2)})`);

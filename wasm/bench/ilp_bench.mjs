// AutoTM's ILP solved in JavaScript (HiGHS compiled to WebAssembly, from the npm package highs)
// against the native tool (CBC), both sides in one run:
//   node wasm/bench/ilp_bench.mjs [RUNS]
// Each model and variant at batch 64 with half of the peak live bytes in fast memory, to a 1 %
// gap, from the same starting plan (HiGHS takes no starting solution): the variant's own solve
// time as the report gives it, and the whole call, as min / median over RUNS (default 3).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { load } = await import(path.join(process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package'), 'index.mjs'));
const native = process.env.SYSGYM_NATIVE ?? path.join(root, 'build/native-release/sysgym');
const runs = Number(process.argv[2] ?? 3);
const sysgym = await load();
sysgym.tensorplace.useHighs((await import(path.join(root, 'web/node_modules/highs/build/highs.mjs'))).default);

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const seconds = (v) => `${Math.min(...v).toFixed(2)} / ${median(v).toFixed(2)} s`;

console.log(`ILP solve time to a 1 % gap, batch 64, half of the peak in fast memory (${runs} runs, min / median):`);
console.log(`${'model'.padEnd(10)} ${'variant'.padEnd(8)} ${'CBC (native)'.padStart(18)} ${'HiGHS (wasm)'.padStart(18)} ${'HiGHS call'.padStart(18)}  iteration ms CBC / HiGHS`);
for (const model of ['vgg19', 'resnet50']) {
  for (const variant of ['static', 'sync']) {
    const cbc = [];
    const highs = [];
    const call = [];
    let ms = [0, 0];
    for (let i = 0; i < runs; i += 1) {
      const r = spawnSync(native, ['tensorplace', 'ilp', '--model', model, '--batch', '64', '--fast-memory', '50%', '--variant', variant, '--gap', '0.01', '--json'], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      const n = JSON.parse(r.stdout);
      cbc.push(n.solve_seconds);
      const start = performance.now();
      const w = await sysgym.tensorplace.ilp({ model, batch: 64, fast_memory: '50%', variant, gap: 0.01 });
      call.push((performance.now() - start) / 1000);
      highs.push(w.solve_seconds);
      ms = [n.iteration_ms, w.iteration_ms];
    }
    console.log(`${model.padEnd(10)} ${variant.padEnd(8)} ${seconds(cbc).padStart(18)} ${seconds(highs).padStart(18)} ${seconds(call).padStart(18)}  ${ms[0].toFixed(1)} / ${ms[1].toFixed(1)}`);
  }
}

// WebAssembly throughput, to set beside the native Google Benchmark figures:
//   node wasm/bench/bench.mjs
// Env steps/s (64 and 1024 bins, one env and a VectorEnv of 8, one JS<->wasm call per step)
// and estimator windows/s on the same 1 M-sample synthetic pair as the native benchmarks.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const packageDir = process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package');
const { load } = await import(path.join(packageDir, 'index.mjs'));
const sysgym = await load();

const trace = 'synth:phased:1000000:1';
function timeIt(label, unit, work, count) {
  work(Math.max(1, Math.floor(count / 10)));  // warm-up
  const start = process.hrtime.bigint();
  work(count);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`${label.padEnd(60)} ${(count / seconds / 1e3).toFixed(1).padStart(10)} k ${unit}/s`);
}

for (const bins of [64, 1024]) {
  const env = sysgym.make('memtier', { trace, bins, hbm_capacity: '25%', window_len: 2e6 });
  const actions = Array.from({ length: 64 }, (_, i) => env.actionSpace.sample(i));
  env.reset({ seed: 0 });
  timeIt(`env step, ${bins} bins, random actions`, 'steps', (n) => {
    for (let i = 0; i < n; i += 1) {
      const r = env.step(actions[i % actions.length]);
      if (r.terminated || r.truncated) env.reset();
    }
  }, bins === 64 ? 200000 : 20000);
  env.dispose();

  const envs = sysgym.makeVector('memtier', { trace, bins, hbm_capacity: '25%', window_len: 2e6 }, 8);
  const batch = new Float64Array(8 * bins);
  actions.slice(0, 8).forEach((a, i) => batch.set(a, i * bins));
  envs.reset({ seed: 0 });
  timeIt(`vector env (8) step, ${bins} bins, random actions`, 'env steps', (n) => {
    for (let i = 0; i < n / 8; i += 1) envs.step(batch);
  }, bins === 64 ? 200000 : 20000);
  envs.dispose();
}

const ranges = ['0x7f3a00000000:0x7f3a01000000'];
const probe = sysgym.memtier.estimate(trace, ranges);
timeIt(`what-if estimate, 1 range (${probe.windows} windows)`, 'windows', (n) => {
  for (let i = 0; i < n / probe.windows; i += 1) sysgym.memtier.estimate(trace, ranges);
}, probe.windows * 2000);

// What the playground's worker does: a policy's episode a window at a time, each window copied
// out as a frame (per-bin counts and residency, reward, info) to post to the page.
for (const policy of ['lfu-hemem', 'static-oracle']) {
  let windows = 0;
  timeIt(`stepped episode with frames, ${policy}, 64 bins`, 'windows', (n) => {
    while (windows < n) {
      const episode = sysgym.episode({ env: 'memtier-v0', config: { trace, bins: 64, hbm_capacity: '25%', window_len: 2e6 }, policy });
      while (!episode.done && windows < n) {
        episode.step();
        windows += 1;
      }
      episode.dispose();
    }
    windows = 0;
  }, 20000);
}

// WebAssembly against native env stepping, both measured in one run (the machine varies by up to
// 30 % between runs, so a ratio of figures from different runs means little):
//   node wasm/bench/step_ratio.mjs [ROUNDS]
// Each round times the native Google Benchmark (sysgym_env_bench) and the same workload through
// the npm package, one after the other; then fresh Node processes time the first 2,000 steps
// after load (the cold start a playground visitor sees). Prints min / median over rounds.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const packageDir = process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package');
const nativeBench = path.join(root, 'build/native-release/tests/sysgym_env_bench');
const rounds = Number(process.argv[2] ?? 5);
const config = { trace: 'synth:phased:1000000:1', bins: 64, hbm_capacity: '25%', window_len: 2e6 };

// The native benchmark's two action streams: random MultiBinary actions, and an agent-like
// stream that flips one bin per step from every fourth bin held.
function randomActions(env) {
  return Array.from({ length: 64 }, (_, i) => env.actionSpace.sample(i + 1));
}
function agentLikeActions(bins) {
  let state = 2;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
  const action = Array.from({ length: bins }, (_, i) => (i % 4 === 0 ? 1 : 0));
  return Array.from({ length: 4096 }, () => {
    const bin = next() % bins;
    action[bin] = 1 - action[bin];
    return Float64Array.from(action);
  });
}

function stepsPerSecond(env, actions, seconds) {
  env.reset({ seed: 0 });
  let steps = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < seconds) {
    for (let k = 0; k < 10000; k += 1, steps += 1) {
      const r = env.step(actions[steps % actions.length]);
      if (r.terminated || r.truncated) env.reset();
    }
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  }
  return steps / elapsed;
}

function nativeStepsPerSecond() {
  const out = execFileSync(nativeBench, [
    '--benchmark_filter=^BM_EnvStep(Random|AgentLike)/bins:64/window_instrs:2000000$',
    '--benchmark_min_time=1', '--benchmark_format=json'], { encoding: 'utf8' });
  const rates = {};
  for (const b of JSON.parse(out).benchmarks) {
    rates[b.name.includes('Random') ? 'random' : 'agentLike'] = b.items_per_second;
  }
  return rates;
}

// A fresh process: load the package, make the env, time its first 2,000 steps.
const coldScript = (warmUp) => `
  const { load } = await import(${JSON.stringify(path.join(packageDir, 'index.mjs'))});
  const t0 = process.hrtime.bigint();
  const sysgym = await load({ warmUp: ${warmUp} });
  const env = sysgym.make('memtier', ${JSON.stringify(config)});
  const actions = Array.from({ length: 64 }, (_, i) => env.actionSpace.sample(i + 1));
  env.reset({ seed: 0 });
  const t1 = process.hrtime.bigint();
  for (let i = 0; i < 2000; i += 1) env.step(actions[i % 64]);
  const t2 = process.hrtime.bigint();
  console.log(JSON.stringify({ setup: Number(t1 - t0) / 1e6, first2000: Number(t2 - t1) / 1e6 }));
`;

const stat = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: s[0], median: s[Math.floor((s.length - 1) / 2)], max: s[s.length - 1] };
};
const k = (x) => `${(x / 1e3).toFixed(0)} k`;

const { load } = await import(path.join(packageDir, 'index.mjs'));
const sysgym = await load();
const env = sysgym.make('memtier', config);
const streams = { random: randomActions(env), agentLike: agentLikeActions(config.bins) };
stepsPerSecond(env, streams.random, 1);  // past V8's tier-up before the first timed round
const figures = { random: { native: [], wasm: [] }, agentLike: { native: [], wasm: [] } };
for (let r = 0; r < rounds; r += 1) {
  const native = nativeStepsPerSecond();
  for (const kind of Object.keys(figures)) {
    figures[kind].native.push(native[kind]);
    figures[kind].wasm.push(stepsPerSecond(env, streams[kind], 1));
  }
  process.stderr.write(`round ${r + 1}/${rounds}\r`);
}
env.dispose();
console.log(`memtier-v0 env steps/s, 64 bins, 1 M-sample phased pair, ${rounds} rounds (min / median):`);
for (const [kind, f] of Object.entries(figures)) {
  const n = stat(f.native);
  const w = stat(f.wasm);
  const ratios = stat(f.native.map((x, i) => x / f.wasm[i]));
  console.log(`  ${kind.padEnd(10)} native ${k(n.min)} / ${k(n.median)}   wasm ${k(w.min)} / ${k(w.median)}` +
    `   native/wasm per round ${ratios.min.toFixed(2)} / ${ratios.median.toFixed(2)}x`);
}
const nativeMedian = stat(figures.random.native).median;
for (const warmUp of [true, false]) {
  const cold = Array.from({ length: rounds }, () => JSON.parse(execFileSync(process.execPath,
    ['--input-type=module', '-e', coldScript(warmUp)], { encoding: 'utf8' })));
  const first = stat(cold.map((c) => c.first2000));
  const setup = stat(cold.map((c) => c.setup));
  console.log(`  cold start, fresh process, load({ warmUp: ${warmUp} }): load + make ${setup.min.toFixed(0)} / ` +
    `${setup.median.toFixed(0)} ms; first 2,000 random steps ${first.min.toFixed(1)} / ${first.median.toFixed(1)} ms` +
    ` = ${(first.median / (2000 / nativeMedian * 1e3)).toFixed(1)}x native's steady rate`);
}

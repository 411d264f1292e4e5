// Training throughput of the WebAssembly build against the native tool, both sides in one run:
//   node wasm/bench/train_bench.mjs [RUNS]
// The same `sysgym train` command (DQN and PPO on a shipped trace, one thread) through the npm
// bin and the native tool, alternating, RUNS times each (default 5); env steps/s as min / median
// over the runs and the median ratio wasm/native.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const bin = path.join(process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package'), 'sysgym-cli.mjs');
const native = process.env.SYSGYM_NATIVE ?? path.join(root, 'build/native-release/sysgym');
const runs = Number(process.argv[2] ?? 5);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-train-bench-'));

function stepsPerSecond(command, args) {
  const r = spawnSync(command[0], [...command.slice(1), ...args, '-o', path.join(tmp, 'p.json')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command.join(' ')} failed: ${r.stderr}`);
  return Number(/: (\d+) steps\/s/.exec(r.stdout)[1]);
}

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const common = ['train', 'memtier', 'trace=hpcc-randomaccess', 'hbm_capacity=10%', 'bins=16', '--curve-every', '100000'];
for (const [agent, steps] of [['dqn', 20000], ['ppo', 40000]]) {
  const args = [...common, '--agent', agent, '--steps', String(steps)];
  const w = [];
  const n = [];
  for (let i = 0; i < runs; i += 1) {
    w.push(stepsPerSecond(['node', bin], args));
    n.push(stepsPerSecond([native], args));
  }
  const line = (label, v) => `${label.padEnd(34)} ${String(Math.min(...v)).padStart(8)} / ${String(median(v)).padStart(8)} steps/s`;
  console.log(`train ${agent}, ${steps} steps, 16 bins, ${runs} runs each (min / median):`);
  console.log(line('  native tool', n));
  console.log(line('  npm bin (WebAssembly)', w));
  console.log(`  wasm/native (medians)              ${(median(w) / median(n)).toFixed(2)}`);
}
fs.rmSync(tmp, { recursive: true, force: true });

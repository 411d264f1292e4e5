// The training runs the profiler is measured on, shared by the goal benchmark
// (profile_bench.mjs) and the playground's shipped reports (data/profiles/regenerate.mjs): each
// family's `train` with each agent its action space allows (DQN needs Discrete actions, PPO
// MultiBinary or Discrete(2)), at two network sizes.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const bin = path.join(process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package'), 'sysgym-cli.mjs');
export const native = process.env.SYSGYM_NATIVE ?? path.join(root, 'build/native-release/sysgym');

// Steps sized for a second or two of native training with the small network (the npm bin takes
// 2-5x longer, the large network up to 10x).
export const CASES = [
  { env: 'memtier-v0', settings: ['trace=hpcc-randomaccess', 'hbm_capacity=10%', 'bins=16'], agent: 'dqn', steps: 8000 },
  { env: 'memtier-v0', settings: ['trace=hpcc-randomaccess', 'hbm_capacity=10%', 'bins=16'], agent: 'ppo', steps: 16000 },
  { env: 'tensorplace-v0', settings: [], agent: 'ppo', steps: 12000 },
  { env: 'looptune-v0', settings: [], agent: 'dqn', steps: 40000 },
  { env: 'inline-v0', settings: ['program=expat'], agent: 'dqn', steps: 8000 },
  { env: 'inline-v0', settings: ['program=expat'], agent: 'ppo', steps: 16000 },
];
export const NETWORKS = [[32, 32], [256, 256]];
export const CATEGORIES = ['simulation', 'inference', 'learning', 'data', 'framework', 'js-wasm boundary'];

// A case's steps at `scale` (never under 200).
export const scaledSteps = (c, scale) => Math.max(200, Math.round(c.steps * scale));

// `train` of case `c` as command-line arguments, its policy written to `output`.
export function trainArgs(c, hidden, steps, output) {
  return ['train', c.env, ...c.settings, '--agent', c.agent, '--agent-config', JSON.stringify({ hidden }),
    '--steps', String(steps), '--curve-every', '100000', '-o', output];
}

// `sysgym profile --json --runs RUNS -- train ...` through the native tool (side 'native') or
// the npm bin ('wasm'): its report.
export function profileRun(side, c, hidden, { steps, runs, output }) {
  const command = side === 'native' ? [native] : ['node', bin];
  const train = trainArgs(c, hidden, steps, output);
  const r = spawnSync(command[0], [...command.slice(1), 'profile', '--json', '--runs', String(runs), '--', ...train],
    { encoding: 'utf8', env: { ...process.env, SYSGYM_DATA: path.join(root, 'data') } });
  if (r.status !== 0) throw new Error(`${side} profile of ${train.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

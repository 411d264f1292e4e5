// The npm bin's commands: their flags (node:util parseArgs specs) and help, written to match the
// native tool's (`sysgym COMMAND --help` there).
const windowFlags = {
  mode: { type: 'string' }, unit: { type: 'string' }, 'window-len': { type: 'string' },
  'page-size': { type: 'string' }, 'cpu-cycles-per-ms': { type: 'string' },
};
const envFlags = { config: { type: 'string' }, set: { type: 'string', multiple: true }, seed: { type: 'string' }, json: { type: 'boolean' } };
const help = { help: { type: 'boolean', short: 'h' } };
export const COMMANDS = {
  list: { json: { type: 'boolean' }, ...help },
  describe: { config: { type: 'string' }, set: { type: 'string', multiple: true }, json: { type: 'boolean' }, ...help },
  estimate: {
    ...help,
    ...windowFlags, ddr: { type: 'string' }, hbm: { type: 'string' }, input: { type: 'string' },
    'hbm-range': { type: 'string', multiple: true }, measured: { type: 'string' },
    'hbm-factor': { type: 'string' }, json: { type: 'boolean' },
  },
  inspect: {
    ...help, 'page-size': { type: 'string' }, 'interval-distance': { type: 'string' },
    'cpu-cycles-per-ms': { type: 'string' }, json: { type: 'boolean' },
  },
  run: { ...envFlags, ...help, policy: { type: 'string' }, 'policy-config': { type: 'string' }, record: { type: 'string' } },
  compare: { ...envFlags, ...help, policies: { type: 'string' } },
  check: { ...envFlags, ...help, all: { type: 'boolean' } },
  train: {
    ...help, config: { type: 'string' }, set: { type: 'string', multiple: true }, vary: { type: 'string', multiple: true },
    resume: { type: 'string' }, agent: { type: 'string' }, 'agent-config': { type: 'string' }, steps: { type: 'string' },
    envs: { type: 'string' }, threads: { type: 'string' }, seed: { type: 'string' }, 'curve-every': { type: 'string' },
    curve: { type: 'string' }, 'checkpoint-every': { type: 'string' }, output: { type: 'string', short: 'o' },
  },
  eval: {
    ...envFlags, ...help, vary: { type: 'string', multiple: true }, policy: { type: 'string', multiple: true },
    baselines: { type: 'string' },
  },
  profile: {
    ...help, json: { type: 'boolean' }, 'chrome-trace': { type: 'string' }, 'max-events': { type: 'string' },
    runs: { type: 'string' }, 'no-baseline': { type: 'boolean' }, partial: { type: 'boolean' },
  },
};
// Commands taking positionals (profile: the command after --).
export const POSITIONAL = new Set(['run', 'compare', 'describe', 'check', 'train', 'eval', 'profile']);
// Flags of a trained run that come from its state with --resume (CLI11's `excludes`, natively).
export const FROM_STATE = ['config', 'set', 'vary', 'agent', 'agent-config', 'envs', 'seed', 'curve-every'];
const ENV_FLAGS = `  ENV                    a registered env id or bare name (sysgym list)
  KEY=VALUE              a config key typed by the env's schema (VALUE: JSON, else a string)
  --config JSON|FILE     config keys as a JSON object, inline or in a file
  --set KEY=VALUE        the same as KEY=VALUE (repeatable)
  --seed N               episode seed, 0 to 2^64-1 (default 0)
  --json                 the report as JSON
`;
export const HELP = {
  list: 'usage: sysgym list [--json]\nEvery registered env and what it models.\n',
  describe: `usage: sysgym describe [ENV] [KEY=VALUE]... [--config JSON|FILE] [--set KEY=VALUE]... [--json]
An env's resolved config (each key explained by its schema), facts, spaces, observation layout,
info keys and policies. Keys not given come from the env's example config; without ENV, the first env.
example: sysgym describe memtier bins=16 hbm_capacity=10%
`,
  run: `usage: sysgym run ENV [KEY=VALUE]... [flags]
One episode of a policy on an env: its facts and summary (the primary metric marked).
${ENV_FLAGS}  --policy NAME          a built-in policy (random, lru, static-oracle, ...; learned with --policy-config)
  --policy-config FILE   a policy file from \`sysgym train\`, its env settings applied first
  --record FILE          write the episode for replay (sysgym.replay, the playground, the native tool)
example: sysgym run memtier trace=xz hbm_capacity=10% --policy lfu-hemem
`,
  compare: `usage: sysgym compare ENV [KEY=VALUE]... [flags]
Every policy that runs on its own on one env config, best first by the env's ranking.
${ENV_FLAGS}  --policies A,B         only these policies
example: sysgym compare memtier trace=hpcc-randomaccess hbm_capacity=10%
`,
  check: `usage: sysgym check (ENV [KEY=VALUE]... | --all) [--config JSON|FILE] [--set KEY=VALUE]... [--seed N] [--json]
Checks that an env keeps the env contract (spaces, determinism, errors, recordings): each env is
made from its example config with the given keys over it. A broken promise is an EnvCheckError
(exit 1) naming it.
  --all                  check every registered env
  --seed N               seed of the checked episodes (default 0)
  --json                 {id: [passed checks]}
example: sysgym check memtier action_mode=discrete bins=8
`,
  train: `usage: sysgym train ENV [KEY=VALUE]... [flags] -o POLICY.json
       sysgym train --resume POLICY.json.state [--steps N] [...] -o POLICY.json
A DQN or PPO agent on an env, over a grid of configs; writes the policy file (for run
--policy learned --policy-config FILE, eval and the playground) and the learning curve. The
WebAssembly build steps its envs on one thread and is several times slower than the native tool
(docs/performance.md's figures); the results are the same.
  --config JSON|FILE, --set KEY=VALUE   as for run
  --vary KEY=V1,V2,...   one config per value (repeatable: every combination, the last fastest);
                         KEY=[JSON array] when a value holds a comma
  --agent dqn|ppo        dqn needs Discrete actions, ppo MultiBinary (default: dqn where the
                         env can act in Discrete, as memtier, else ppo; the env sets its action
                         settings for the agent unless given)
  --agent-config JSON|FILE  agent hyperparameters
  --steps N              env steps in all, 1 to 2^40 (default 200000)
  --envs N               envs stepped together, 1 to 4096 (default: one per --vary combination,
                         round-robin when larger)
  --threads N            accepted for the native tool's command lines; here envs step in turn
  --seed N               seed of the agent and the envs (default 0)
  --curve-every N        env steps between curve points (default 5000)
  --curve FILE           write the learning curve as CSV
  --checkpoint-every N   write the policy so far to OUTPUT.checkpoint and the training state to
                         OUTPUT.state (for --resume) every N env steps, at curve points
  --resume FILE          continue from OUTPUT.state (native or WebAssembly): its env, configs,
                         agent, envs and seed
  -o, --output FILE      the policy file to write (required)
example: sysgym train memtier --vary trace=hpcc-randomaccess,sqlite hbm_capacity=25% bins=16 --steps 20000 -o dqn.json
`,
  eval: `usage: sysgym eval [ENV] [KEY=VALUE]... --policy FILE [--policy FILE]... [flags]
Trained policies next to every baseline and oracle, one comparison table per config. Every
config runs whole (memtier: from the first window to the last, a trained capacity range at both
ends). Baselines run on the first policy's env settings without the keys a policy fixes; each
learned policy adds its own. ENV, when given, must be the env the policies were trained on.
${ENV_FLAGS}  --policy FILE          a policy file from \`sysgym train\` (repeatable, required)
  --vary KEY=V1,V2,...   one table per combination (as train's)
  --baselines A,B        only these baselines (default: every policy that runs on its own)
example: sysgym eval --policy dqn.json --vary trace=lammps,hpcc-stream
`,
  profile: `usage: sysgym profile [--json] [--chrome-trace FILE] [--max-events N] [--runs N] [--no-baseline] [--partial] -- COMMAND...
Runs a sysgym command and reports where its time went: every operation the core names (env step
and its phases, policy inference, learner update, replay sampling, data loading) with its self
and inclusive time, count, mean and share, corrected for the profiler's own cost; the calls from
JS into the WebAssembly module (counted, their time outside the core's operations as the
js-wasm boundary); the time in JS; and the same command's time unprofiled in this process (the
first run loads data that later runs find cached: --runs 2 or more compares warm runs).
  --json                 the report as JSON (the command's own output goes to stderr)
  --chrome-trace FILE    the timeline as Chrome trace-event JSON (Perfetto, chrome://tracing)
  --max-events N         scopes and calls kept for the timeline, the first (default 200000)
  --runs N               profiled and unprofiled runs, alternating; each side's fastest counts
  --no-baseline          no unprofiled run
  --partial              report what was profiled when the command fails (marked partial)
example: sysgym profile -- train memtier-v0 --agent ppo --steps 5000 -o ppo.json
`,
  inspect: `usage: sysgym memtier inspect FILE [--page-size BITS] [--interval-distance BITS] [--cpu-cycles-per-ms N] [--json]
What a trace (MemAI CSV, perf script, sysgym binary) or a preprocessed pair holds: samples,
time span, phases, footprint, regions and, for a pair, its windows and all-DDR / all-HBM times.
  --page-size BITS       log2 of the page size for footprints (default 13)
  --interval-distance BITS  pages closer than 2^BITS bytes belong to one region (default 22)
  --cpu-cycles-per-ms N  CPU cycles per millisecond (default 1.4e6)
  --json                 one JSON object
example: sysgym memtier inspect data/synth/phased.ddr.csv
`,
  estimate: `usage: sysgym memtier estimate (--ddr FILE --hbm FILE | --input PAIR.bin) [flags]
MemAI's differential estimate of a placement: address ranges in HBM, the rest in DDR.
  --ddr FILE, --hbm FILE the pair's traces (MemAI CSV, perf script or sysgym binary)
  --input FILE           a pair preprocessed by \`sysgym memtier preprocess\` (native)
  --hbm-range LO:HI      an address range in HBM (repeatable)
  --measured FILE        a measured mixed run to compare with
  --hbm-factor F         scale of the HBM run's time (default 1)
  --mode memai|aligned, --unit ms|instrs|accesses, --window-len X, --page-size BITS,
  --cpu-cycles-per-ms N  windowing, as natively
  --json                 the estimate as JSON
`,
};
export const USAGE = `usage: sysgym COMMAND [ARGS]   (COMMAND --help for its flags)
  list                   every registered env
  describe [ENV] [...]   an env's config, spaces, layout and policies
  run ENV [KEY=VALUE]... one episode of a policy
  compare ENV [...]      every policy on one config
  check ENV | --all      check the env contract
  train ENV [...] -o F   train a DQN or PPO agent (one thread: slower than the native tool)
  eval --policy F [...]  trained policies against every baseline and oracle
  profile -- COMMAND...  where a command's time goes (operations, JS-wasm calls, JS)
  memtier estimate       MemAI's differential estimate (also: estimate)
  memtier inspect FILE   what a trace or preprocessed file holds (also: inspect)
The native tool has these with the same arguments and output, and the trace tools that run
programs or write large files (memtier preprocess|synth|trace|traces).
`;

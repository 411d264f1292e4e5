// The npm bin's check, train and eval: the native commands' flags, files and output, on the
// WebAssembly core (its Trainer stepped in slices, wasm/training_handles.cpp).
import { ConfigError, usageError } from './errors.mjs';
import { jsonText, readInput, writeAtomically } from './node_files.mjs';

export function check(sysgym, values, { env, config, settings }) {
  if (values.all === true ? env !== '' : env === '') throw new ConfigError('give one env id, or --all');
  const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
  const ids = values.all ? sysgym.envIds() : [sysgym.resolveEnv(env)];
  const report = {};
  for (const id of ids) {
    report[id] = sysgym.checkEnv(id, { config: config === '' ? {} : config, settings, seed });
    if (values.json) continue;
    process.stdout.write(`${id}: every check passed\n${report[id].map((line) => `  ok  ${line}\n`).join('')}`);
  }
  if (values.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

// A numeric flag of train checked with the native range (core/agents/training_files.hpp).
function integer(sysgym, values, flag, fallback) {
  if (values[flag] === undefined) return fallback;
  const [min, max] = sysgym.trainFlagRanges()[`--${flag}`];
  return Number(sysgym.checkInteger(values[flag], `--${flag}`, min, max));
}

// A new run from the flags, or the run a --resume state holds.
function trainer(sysgym, values, { env, config, settings }) {
  if (values.resume === undefined) {
    if (env === '') throw new ConfigError('name the env to train on (`sysgym train memtier ...`), or --resume a training state');
    const agent = values.agent ?? '';
    return sysgym.trainer({
      env, config, settings, vary: values.vary ?? [], agent,
      envs: values.envs ?? undefined, agentConfig: jsonText(values['agent-config']) || undefined,
      seed: values.seed ?? '0', curveEvery: values['curve-every'],
    });
  }
  const resumed = sysgym.resumeTrainer(new Uint8Array(readInput(values.resume)), values.resume);
  process.stderr.write(`resumed ${resumed.agent} at ${resumed.envSteps} env steps from ${values.resume}\n`);
  return resumed;
}

export function train(sysgym, values, positionals) {
  const steps = integer(sysgym, values, 'steps', 200000);
  integer(sysgym, values, 'threads', 1);
  const checkpointEvery = integer(sysgym, values, 'checkpoint-every', 0);
  integer(sysgym, values, 'envs', 0);
  integer(sysgym, values, 'curve-every', 0);
  const run = trainer(sysgym, values, positionals);
  try {
    const output = values.output;
    const terminal = process.stderr.isTTY === true;
    const start = performance.now();
    const resumedAt = run.envSteps;
    let nextCheckpoint = checkpointEvery;
    run.train(steps, (point) => {
      // A snapshot of the policy so far: a long run that dies still leaves a usable policy.
      if (checkpointEvery > 0 && point.env_steps >= nextCheckpoint) {
        nextCheckpoint += checkpointEvery;
        writeAtomically(`${output}.checkpoint`, run.checkpoint());
        writeAtomically(`${output}.state`, run.state());
      }
      const rate = (point.env_steps - resumedAt) / ((performance.now() - start) / 1000);
      process.stderr.write(`${terminal ? '\r' : ''}${run.progressText(steps, rate)}${terminal ? '   ' : '\n'}`);
    });
    if (terminal) process.stderr.write('\n');
    const seconds = (performance.now() - start) / 1000;
    writeAtomically(output, run.policy(seconds));
    if (values.curve !== undefined) writeAtomically(values.curve, run.curveCsv());
    process.stdout.write(run.summaryText(run.envSteps - resumedAt, seconds, output, values.curve ?? ''));
  } finally {
    run.dispose();
  }
}

export function evaluate(sysgym, values, { env, config, settings }) {
  if (values.policy === undefined) throw usageError('--policy is required');
  const policies = values.policy.map((path) => ({ path, text: jsonText(path) }));
  const baselines = (values.baselines ?? []).flatMap((list) => list.split(',')).filter((name) => name !== '');
  const report = sysgym.evalReport({
    policies, env, config, settings, vary: values.vary ?? [], baselines, seed: values.seed ?? '0', seeds: values.seeds ?? '1',
  }, values.json === true);
  process.stdout.write(values.json ? `${report}\n` : report);
}

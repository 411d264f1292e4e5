#!/usr/bin/env node
// `sysgym` for users with only Node: list, describe, run, compare, check, train, eval, profile and
// memtier estimate|inspect, with the native tool's arguments and help, on the WebAssembly core. Their
// output, text or --json, is the native tool's byte for byte (built by the same C++; train's
// timings aside). The native tool alone has the trace tools that run programs or write large
// files, and trains several times faster.
import { COMMANDS, HELP, NATIVE_COMMANDS, NATIVE_ONLY, USAGE } from './cli_help.mjs';
import { parseCommand } from './cli_parse.mjs';
import { profileCommand } from './cli_profile.mjs';
import { check, evaluate, train } from './cli_training.mjs';
import { UsageError, printable, usageError } from './errors.mjs';
import { jsonText, readInput, writeAtomically } from './node_files.mjs';
import { ConfigError, SysgymError, load } from './index.mjs';

// Numeric window options stay text: the core parses them as the native flags (same ranges,
// same messages).
function windowOptions(v) {
  const w = {};
  if (v.mode !== undefined) w.mode = v.mode;
  if (v.unit !== undefined) w.unit = v.unit;
  const keys = { 'window-len': 'window_len', 'page-size': 'page_size', 'cpu-cycles-per-ms': 'cpu_cycles_per_ms' };
  for (const [flag, key] of Object.entries(keys)) {
    if (v[flag] !== undefined) w[key] = v[flag];
  }
  return w;
}


// `run|compare ENV [KEY=VALUE]...`: the env, --config's text and the settings (--set first).
function envArguments(positionals, values) {
  const [env, ...settings] = positionals;
  if (env.includes('=')) throw new ConfigError('name an env first (`sysgym list` shows them)');
  const config = jsonText(values.config);
  return { env, config, settings: [...(values.set ?? []), ...settings] };
}

// An optional ENV (describe, check, train, eval): a first positional holding '=' is a setting, as
// natively. env is '' when none was named.
function optionalEnv(positionals, values) {
  const named = positionals.length > 0 && !positionals[0].includes('=');
  return {
    env: named ? positionals[0] : '',
    config: jsonText(values.config),
    settings: [...(values.set ?? []), ...positionals.slice(named ? 1 : 0)],
  };
}

function print(text, json) {
  process.stdout.write(json ? `${text}\n` : text);
}

const RUN = {
  list(sysgym, values) {
    const envs = sysgym.envs();
    process.stdout.write(values.json ? `${JSON.stringify(envs, null, 2)}\n` : envs.map((e) => `${e.id.padEnd(16)} ${e.summary}\n`).join(''));
  },
  describe(sysgym, values, positionals) {
    const { env, config, settings } = optionalEnv(positionals, values);
    print(sysgym.describeReport(env, config, settings, values.json === true), values.json);
  },
  estimate(sysgym, values) {
    // Needs and Excludes (one pair) were checked as the native tool checks them.
    const pair = values.ddr !== undefined;
    if (!pair && values.trace === undefined && values.input === undefined) {
      throw new ConfigError('give the trace pair with --trace NAME, --ddr FILE --hbm FILE, or a preprocessed pair with --input FILE');
    }
    // Files given by flag are read as the native flags read them (a missing one is an IoError
    // naming it); a --trace name resolves in the core over the host's files, as an env's trace key.
    const files = pair ? [values.ddr, values.hbm] : values.input !== undefined ? [values.input] : [];
    for (const file of files) sysgym.data.add(file, readInput(file));
    const name = values.trace ?? values.input ?? `${values.ddr},${values.hbm}`;
    const measured = values.measured ? readInput(values.measured) : null;
    print(sysgym.memtier.estimateReport(name, windowOptions(values), values['hbm-range'] ?? [],
      values['hbm-factor'] ?? '1', measured, { json: values.json === true, measuredName: values.measured ?? '' }), values.json);
  },
  inspect(sysgym, values, positionals) {
    const [file] = positionals;
    print(sysgym.memtier.inspectReport(file, readInput(file), {
      pageSize: values['page-size'] ?? '', intervalDistance: values['interval-distance'] ?? '',
      cpuCyclesPerMs: values['cpu-cycles-per-ms'] ?? '', json: values.json === true,
    }), values.json);
  },
  run(sysgym, values, positionals) {
    const { env, config, settings } = envArguments(positionals, values);
    const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
    const [report, recorded] = sysgym.runReport(env, config, settings, values.policy,
      jsonText(values['policy-config']), seed, values.record !== undefined, values.json === true);
    if (values.record !== undefined) writeAtomically(values.record, `${recorded}\n`);
    print(report, values.json);
    if (!values.json && values.record !== undefined) {
      process.stdout.write(`recorded ${JSON.parse(recorded).steps.length} steps in ${values.record}\n`);
    }
  },
  compare(sysgym, values, positionals) {
    const { env, config, settings } = envArguments(positionals, values);
    const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
    print(sysgym.compareReport(env, config, settings, (values.policies ?? []).flatMap((list) => list.split(',')), seed, values.json === true), values.json);
  },
  check: (sysgym, values, positionals) => check(sysgym, values, optionalEnv(positionals, values)),
  train: (sysgym, values, positionals) => train(sysgym, values, optionalEnv(positionals, values)),
  eval: (sysgym, values, positionals) => evaluate(sysgym, values, optionalEnv(positionals, values)),
};

// A command the bin lacks: a family's tool (the native tool's only: they run compilers, solvers,
// valgrind or write large files), or no command at all.
async function unknownCommand(loaded, argv) {
  const families = new Set((await loaded()).envIds().map((id) => id.replace(/-v\d+$/, '')));
  const [first, second] = argv;
  if (families.has(first) && second !== undefined && !second.startsWith('-')) {
    throw new UsageError(`sysgym: '${printable(`${first} ${second}`)}' is the native tool's only (the npm bin has ` +
      "list, describe, run, compare, check, train, eval, profile, memtier estimate and memtier inspect); " +
      'build it from the source tree with ./sysgym.sh build\n');
  }
  if (families.has(first)) {
    throw new UsageError(`sysgym: ${printable(first)}'s tools are the native tool's (./sysgym.sh build)` +
      `${first === 'memtier' ? ', but for memtier estimate and memtier inspect' : ''}\n`);
  }
  if (first === undefined) throw new UsageError(USAGE);
  throw usageError(`unknown command '${printable(first)}' (the commands: ${NATIVE_COMMANDS.join(', ')})`);
}

// Parses one command line and runs it on the module `loaded()` gives.
async function dispatch(loaded, argv) {
  let [command, ...args] = argv;
  // The family's tools live under its name; `estimate` and `inspect` alone stay aliases.
  if (command === 'memtier') [command, ...args] = args;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (!COMMANDS[command]) await unknownCommand(loaded, argv);
  const { values, positionals, help } = parseCommand(COMMANDS[command], args);
  if (help) {
    process.stdout.write(HELP[command]);
    return;
  }
  for (const [flag, why] of Object.entries(NATIVE_ONLY[command] ?? {})) {
    if (values[flag] !== undefined) throw new UsageError(`sysgym: --${flag} is the native tool's only: ${why}\n`);
  }
  if (command === 'profile') {
    await profileCommand(await loaded(), values, positionals, (argv) => dispatch(loaded, argv));
    return;
  }
  await RUN[command](await loaded(), values, positionals);
}

async function main() {
  let loading = null;
  await dispatch(() => (loading ??= load()), process.argv.slice(2));
}

// Output lost (a full disk, /dev/full, a closed pipe) is an error, as natively.
process.stdout.on('error', (e) => {
  process.stderr.write(`sysgym: IoError: cannot write standard output: ${printable(e.message)}\n`);
  process.exit(1);
});

// Every failure is one line: never a stack trace, which would quote the minified module.
main().then(() => {
  process.stdout.write('', (e) => {
    if (e) process.stdout.emit('error', e);
  });
}, (e) => {
  if (e instanceof UsageError) {
    process.stderr.write(e.text);
    process.exit(2);
  }
  if (e instanceof SysgymError) {
    process.stderr.write(`sysgym: ${e.name}: ${printable(e.message, 4096)}\n`);
    process.exit(1);
  }
  process.stderr.write(`sysgym: internal error: ${printable(String(e?.message ?? e), 300)}\n`);
  process.exit(3);
});

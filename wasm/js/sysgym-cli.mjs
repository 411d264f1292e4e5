#!/usr/bin/env node
// `sysgym` for users with only Node: `list`, `describe`, `run ENV`, `compare ENV` and `memtier
// estimate` (also `estimate`) with the native tool's arguments and help, on the WebAssembly core.
// Their output, text or --json, is the native tool's byte for byte (built by the same C++). The
// native tool alone has check, train, eval and the trace tools (the WebAssembly build is slower
// to train: use the native one for that).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { IoError, printable, quote } from './errors.mjs';
import { inputs, readInput } from './node_files.mjs';
import { ConfigError, SysgymError, load } from './index.mjs';

const windowFlags = {
  mode: { type: 'string' }, unit: { type: 'string' }, 'window-len': { type: 'string' },
  'page-size': { type: 'string' }, 'cpu-cycles-per-ms': { type: 'string' },
};
const envFlags = { config: { type: 'string' }, set: { type: 'string', multiple: true }, seed: { type: 'string' }, json: { type: 'boolean' } };
const help = { help: { type: 'boolean', short: 'h' } };
const COMMANDS = {
  list: { json: { type: 'boolean' }, ...help },
  describe: { config: { type: 'string' }, set: { type: 'string', multiple: true }, json: { type: 'boolean' }, ...help },
  estimate: {
    ...help,
    ...windowFlags, ddr: { type: 'string' }, hbm: { type: 'string' }, input: { type: 'string' },
    'hbm-range': { type: 'string', multiple: true }, measured: { type: 'string' },
    'hbm-factor': { type: 'string' }, json: { type: 'boolean' },
  },
  run: { ...envFlags, ...help, policy: { type: 'string' }, 'policy-config': { type: 'string' }, record: { type: 'string' } },
  compare: { ...envFlags, ...help, policies: { type: 'string' } },
};
const ENV_FLAGS = `  ENV                    a registered env id or bare name (sysgym list)
  KEY=VALUE              a config key typed by the env's schema (VALUE: JSON, else a string)
  --config JSON|FILE     config keys as a JSON object, inline or in a file
  --set KEY=VALUE        the same as KEY=VALUE (repeatable)
  --seed N               episode seed, 0 to 2^64-1 (default 0)
  --json                 the report as JSON
`;
const HELP = {
  list: 'usage: sysgym list [--json]\nEvery registered env and what it models.\n',
  describe: `usage: sysgym describe [ENV] [KEY=VALUE]... [--config JSON|FILE] [--set KEY=VALUE]... [--json]
An env's resolved config (each key explained by its schema), facts, spaces, observation layout,
info keys and policies. Keys not given come from the env's example config; without ENV, the first env.
example: sysgym describe memtier bins=16 hbm_capacity=10%
`,
  run: `usage: sysgym run ENV [KEY=VALUE]... [flags]
One episode of a policy on an env: its facts and summary (the primary metric marked).
${ENV_FLAGS}  --policy NAME          a built-in policy (random, lru, static-oracle, ...; learned with --policy-config)
  --policy-config FILE   a policy file from \`sysgym train\` (native), its env settings applied first
  --record FILE          write the episode for replay (sysgym.replay, the playground, the native tool)
example: sysgym run memtier trace=xz hbm_capacity=10% --policy lfu-hemem
`,
  compare: `usage: sysgym compare ENV [KEY=VALUE]... [flags]
Every policy that runs on its own on one env config, best first by the env's ranking.
${ENV_FLAGS}  --policies A,B         only these policies
example: sysgym compare memtier trace=hpcc-randomaccess hbm_capacity=10%
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
const USAGE = `usage: sysgym COMMAND [ARGS]   (COMMAND --help for its flags)
  list                   every registered env
  describe [ENV] [...]   an env's config, spaces, layout and policies
  run ENV [KEY=VALUE]... one episode of a policy
  compare ENV [...]      every policy on one config
  memtier estimate       MemAI's differential estimate (also: estimate)
The native tool has these with the same arguments and output, and more (check, train,
eval, memtier preprocess|inspect|synth|trace|traces); training is much faster there.
`;

// Writes an output as the native tool does: to a temporary file next to it, renamed into place,
// so a full disk or a kill leaves the previous file whole; a character device or FIFO is written
// in place; an input of this command, a directory or a socket is refused.
function writeAtomically(file, content) {
  let info = null;
  try {
    info = fs.statSync(file);
  } catch (e) {
    if (e.code !== 'ENOENT') throw new IoError(`cannot write ${quote(file)}: ${printable(e.message)}`);
  }
  if (info?.isFile() && inputs.has(`${info.dev}:${info.ino}`)) {
    throw new IoError(`refusing to write ${quote(file)}: it is one of this command's inputs (choose another output path)`);
  }
  if (info && (info.isCharacterDevice() || info.isFIFO())) {
    fs.writeFileSync(file, content);
    return;
  }
  if (info && !info.isFile()) {
    const kind = info.isDirectory() ? 'a directory' : info.isSocket() ? 'a socket' : info.isBlockDevice() ? 'a block device' : 'not a regular file';
    throw new IoError(`cannot write ${quote(file)}: it is ${kind} (outputs are regular files, a character device such as /dev/null, or a FIFO)`);
  }
  const temporary = path.join(path.dirname(file), `${path.basename(file)}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  try {
    fs.writeFileSync(temporary, content, { mode: 0o644 });
    fs.renameSync(temporary, file);
  } catch (e) {
    fs.rmSync(temporary, { force: true });
    throw new IoError(`cannot write ${quote(file)}: ${printable(e.message)}`);
  }
}

function jsonText(text, flag) {
  if (text === undefined) return '';
  const trimmed = text.trimStart();
  const source = trimmed.startsWith('{') || trimmed.startsWith('[') ? text : readInput(text).toString('utf8');
  try {
    JSON.parse(source);
  } catch (e) {
    throw new ConfigError(`${flag}: not valid JSON (${printable(e.message)})`);
  }
  return source;
}

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
  if (env === undefined) {
    process.stderr.write(`sysgym: name an env: ${USAGE}`);
    process.exit(2);
  }
  if (env.includes('=')) throw new ConfigError('name an env first (`sysgym list` shows them)');
  const config = jsonText(values.config, '--config');
  return { env, config, settings: [...(values.set ?? []), ...settings] };
}

async function main() {
  let [command, ...args] = process.argv.slice(2);
  // The family's tools live under its name; `estimate` alone stays an alias for one release.
  if (command === 'memtier') [command, ...args] = args;
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return;
  }
  if (!COMMANDS[command]) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({ args, options: COMMANDS[command], strict: true,
      allowPositionals: ['run', 'compare', 'describe'].includes(command) }));
  } catch (e) {
    process.stderr.write(`sysgym: ${printable(e.message, 4096)}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(HELP[command]);
    return;
  }
  const sysgym = await load();
  if (command === 'describe') {
    // An optional ENV: a first positional holding '=' is a setting, as natively.
    const named = positionals.length > 0 && !positionals[0].includes('=');
    const env = named ? positionals[0] : '';
    const settings = [...(values.set ?? []), ...positionals.slice(named ? 1 : 0)];
    const report = sysgym.describeReport(env, jsonText(values.config, '--config'), settings, values.json === true);
    process.stdout.write(values.json ? `${report}\n` : report);
  } else if (command === 'list') {
    const envs = sysgym.envs();
    process.stdout.write(values.json ? `${JSON.stringify(envs, null, 2)}\n` : envs.map((e) => `${e.id.padEnd(16)} ${e.summary}\n`).join(''));
  } else if (command === 'estimate') {
    const name = values.input ?? `${values.ddr},${values.hbm}`;
    if (!values.input && !(values.ddr && values.hbm)) {
      throw new ConfigError('give a trace pair with --ddr FILE --hbm FILE, or a preprocessed pair with --input FILE');
    }
    // Files given by flag are read as the native flags read them (a missing one is an IoError
    // naming it); trace names in configs resolve in the core over the host's files.
    for (const file of values.input ? [values.input] : [values.ddr, values.hbm]) sysgym.data.add(file, readInput(file));
    const measured = values.measured ? readInput(values.measured) : null;
    const report = sysgym.memtier.estimateReport(name, windowOptions(values), values['hbm-range'] ?? [],
      values['hbm-factor'] ?? '1', measured, { json: values.json === true, measuredName: values.measured ?? '' });
    process.stdout.write(values.json ? `${report}\n` : report);
  } else if (command === 'run') {
    const { env, config, settings } = envArguments(positionals, values);
    const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
    const [report, recorded] = sysgym.runReport(env, config, settings, values.policy ?? '',
      jsonText(values['policy-config'], '--policy-config'), seed, values.record !== undefined, values.json === true);
    if (values.record !== undefined) writeAtomically(values.record, `${recorded}\n`);
    process.stdout.write(values.json ? `${report}\n` : report);
    if (!values.json && values.record !== undefined) {
      process.stdout.write(`recorded ${JSON.parse(recorded).steps.length} steps in ${values.record}\n`);
    }
  } else {
    const { env, config, settings } = envArguments(positionals, values);
    const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
    const report = sysgym.compareReport(env, config, settings, values.policies ? values.policies.split(',') : [], seed, values.json === true);
    process.stdout.write(values.json ? `${report}\n` : report);
  }
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
  if (e instanceof SysgymError) {
    process.stderr.write(`sysgym: ${e.name}: ${printable(e.message, 4096)}\n`);
    process.exit(1);
  }
  process.stderr.write(`sysgym: internal error: ${printable(String(e?.message ?? e), 300)}\n`);
  process.exit(3);
});

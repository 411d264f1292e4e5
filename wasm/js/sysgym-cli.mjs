#!/usr/bin/env node
// `sysgym` for users with only Node: `run ENV`, `compare ENV` and `memtier estimate` (also
// `estimate`) with the native tool's arguments, on the WebAssembly core. With --json the output
// is the native tool's, byte for byte (the reports are built by the same C++); without it, the
// same report as key/value lines.
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
const COMMANDS = {
  estimate: {
    ...windowFlags, ddr: { type: 'string' }, hbm: { type: 'string' }, input: { type: 'string' },
    'hbm-range': { type: 'string', multiple: true }, measured: { type: 'string' },
    'hbm-factor': { type: 'string' }, json: { type: 'boolean' },
  },
  run: { ...envFlags, policy: { type: 'string' }, 'policy-config': { type: 'string' }, record: { type: 'string' } },
  compare: { ...envFlags, policies: { type: 'string' } },
};
const USAGE = 'usage: sysgym run|compare ENV [KEY=VALUE]... [flags], sysgym memtier estimate [flags] '
  + '(the native tool\'s arguments; see its --help)\n';

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

function print(text, asJson) {
  if (asJson) {
    process.stdout.write(`${text}\n`);
    return;
  }
  const value = JSON.parse(text);
  for (const row of Array.isArray(value) ? value : [value]) {
    for (const [key, v] of Object.entries(row)) {
      if (typeof v !== 'object') process.stdout.write(`${key.padEnd(24)} ${v}\n`);
    }
    process.stdout.write('\n');
  }
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
  if (!COMMANDS[command]) {
    process.stderr.write(USAGE);
    process.exit(2);
  }
  let values;
  let positionals;
  try {
    ({ values, positionals } = parseArgs({ args, options: COMMANDS[command], strict: true, allowPositionals: command !== 'estimate' }));
  } catch (e) {
    process.stderr.write(`sysgym: ${printable(e.message, 4096)}\n`);
    process.exit(2);
  }
  const sysgym = await load();
  if (command === 'estimate') {
    const name = values.input ?? `${values.ddr},${values.hbm}`;
    if (!values.input && !(values.ddr && values.hbm)) {
      throw new ConfigError('give a trace pair with --ddr FILE --hbm FILE, or a preprocessed pair with --input FILE');
    }
    // Files given by flag are read as the native flags read them (a missing one is an IoError
    // naming it); trace names in configs resolve in the core over the host's files.
    for (const file of values.input ? [values.input] : [values.ddr, values.hbm]) sysgym.data.add(file, readInput(file));
    const measured = values.measured ? readInput(values.measured) : null;
    print(sysgym.memtier.estimateReport(name, windowOptions(values), values['hbm-range'] ?? [],
      values['hbm-factor'] ?? '1', measured), values.json);
  } else if (command === 'run') {
    const { env, config, settings } = envArguments(positionals, values);
    const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
    const [report, recorded] = sysgym.runReport(env, config, settings, values.policy ?? '',
      jsonText(values['policy-config'], '--policy-config'), seed, values.record !== undefined);
    if (values.record !== undefined) writeAtomically(values.record, `${recorded}\n`);
    print(report, values.json);
  } else {
    const { env, config, settings } = envArguments(positionals, values);
    const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
    print(sysgym.compareReport(env, config, settings, values.policies ? values.policies.split(',') : [], seed), values.json);
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

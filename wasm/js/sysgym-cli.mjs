#!/usr/bin/env node
// `sysgym` for users with only Node: `run ENV`, `compare ENV` and `memtier estimate` (also
// `estimate`) with the native tool's arguments, on the WebAssembly core. With --json the output
// is the native tool's, byte for byte (the reports are built by the same C++); without it, the
// same report as key/value lines.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { IoError, UnknownNameError, printable, quote } from './errors.mjs';
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

// The files this command read (device and inode): an output may never replace one of them.
const inputs = new Set();

// Reads a whole input file. Anything but a regular file (a FIFO, /dev/zero, a directory) is refused
// from its type, before opening: reading those would block or never end.
function read(file) {
  let info;
  try {
    info = fs.statSync(file);
  } catch (e) {
    throw new IoError(`cannot open ${quote(file)}: ${e.code === 'ENOENT' ? 'No such file or directory' : printable(e.message)}`);
  }
  if (!info.isFile()) throw new IoError(`${quote(file)} is not a regular file${info.isDirectory() ? ' (it is a directory)' : ''}`);
  inputs.add(`${info.dev}:${info.ino}`);
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw new IoError(`cannot read ${quote(file)}: ${printable(e.message)}`);
  }
}

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
  const source = trimmed.startsWith('{') || trimmed.startsWith('[') ? text : read(text).toString('utf8');
  try {
    JSON.parse(source);
  } catch (e) {
    throw new ConfigError(`${flag}: not valid JSON (${printable(e.message)})`);
  }
  return source;
}

function isFile(file) {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

// Hands the core the files a trace name can stand for, under the names the core resolves as the
// native tool does: "DDR,HBM" files, a preprocessed file, or PREFIX (PREFIX.ddr.* and
// PREFIX.hbm.*). A synth: name the core generates itself.
function provide(sysgym, name) {
  if (name.startsWith('synth:')) return;
  const comma = name.indexOf(',');
  if (comma >= 0 || (fs.existsSync(name) && !fs.statSync(name).isDirectory())) {
    for (const file of comma >= 0 ? [name.slice(0, comma), name.slice(comma + 1)] : [name]) sysgym.data.add(file, read(file));
    return;
  }
  const dir = path.dirname(name);
  const stem = path.basename(name);
  let found = [];
  try {
    found = fs.readdirSync(dir).filter((f) => (f.startsWith(`${stem}.ddr.`) || f.startsWith(`${stem}.hbm.`)) && isFile(path.join(dir, f)));
  } catch {
    // an unreadable or missing folder holds no pair
  }
  if (name === '' || found.length === 0) {
    // The core's message for an unknown trace, as the native tool prints it.
    throw new UnknownNameError(`unknown trace ${quote(name)}: no file ${quote(name)}, and no ${printable(name)}.ddr.* + `
      + `${printable(name)}.hbm.* pair (the npm package ships no traces); also DDR,HBM, a preprocessed PAIR.bin or `
      + 'synth:PATTERN[:SAMPLES[:SEED[:FOOTPRINT_MIB]]]');
  }
  for (const f of found) sysgym.data.add(name + f.slice(stem.length), read(path.join(dir, f)));
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

// The trace the env will load: --config's, then the last trace=... of the settings (a JSON
// string value is its text).
function traceOf(configText, settings) {
  let trace = configText ? JSON.parse(configText).trace : undefined;
  for (const s of settings) {
    if (!s.startsWith('trace=')) continue;
    trace = s.slice(6);
    try {
      const value = JSON.parse(trace);
      if (typeof value === 'string') trace = value;
    } catch {
      // not JSON: the text itself, as natively
    }
  }
  return typeof trace === 'string' ? trace : undefined;
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
  const all = [...(values.set ?? []), ...settings];
  const trace = traceOf(config, all);
  return { env, config, settings: all, trace };
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
    provide(sysgym, name);
    const measured = values.measured ? read(values.measured) : null;
    print(sysgym.memtier.estimateReport(name, windowOptions(values), values['hbm-range'] ?? [],
      values['hbm-factor'] ?? '1', measured), values.json);
  } else if (command === 'run') {
    const { env, config, settings, trace } = envArguments(positionals, values);
    const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
    if (trace !== undefined) provide(sysgym, trace);
    const [report, recorded] = sysgym.runReport(env, config, settings, values.policy ?? '',
      jsonText(values['policy-config'], '--policy-config'), seed, values.record !== undefined);
    if (values.record !== undefined) writeAtomically(values.record, `${recorded}\n`);
    print(report, values.json);
  } else {
    const { env, config, settings, trace } = envArguments(positionals, values);
    const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
    if (trace !== undefined) provide(sysgym, trace);
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

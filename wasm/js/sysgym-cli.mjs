#!/usr/bin/env node
// `sysgym` for users with only Node: `run ENV`, `compare ENV` and `memtier estimate` (also
// `estimate`) with the native tool's arguments, on the WebAssembly core. With --json the output
// is the native tool's, byte for byte (the reports are built by the same C++); without it, the
// same report as key/value lines.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

import { IoError, printable, quote } from './errors.mjs';
import { ConfigError, SysgymError, TraceFormatError, load } from './index.mjs';

const MAGIC = [0x89, 0x53, 0x59, 0x53, 0x47, 0x59, 0x4d, 0x0a];
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

// The file of `side` ("ddr" or "hbm") for PREFIX, or '' (the binary one of several formats), as
// the native tool's trace names choose it.
function sideFile(prefix, side) {
  const dir = path.dirname(prefix);
  const stem = `${path.basename(prefix)}.${side}.`;
  let found = [];
  try {
    found = fs.readdirSync(dir).filter((f) => f.startsWith(stem) && fs.statSync(path.join(dir, f)).isFile()).sort();
  } catch {
    return '';
  }
  if (found.length === 0) return '';
  if (found.includes(`${stem}bin`)) return path.join(dir, `${stem}bin`);
  if (found.length > 1) {
    throw new IoError(`trace ${quote(prefix)}: several ${side} traces (${found.join(', ')}); name the pair as DDR_FILE,HBM_FILE`);
  }
  return path.join(dir, found[0]);
}

// The files of a pair name: "DDR,HBM", an existing file (a preprocessed pair), or PREFIX. The
// package ships no traces, so the native tool's shipped names are not known here.
function pairFiles(name) {
  const comma = name.indexOf(',');
  if (comma >= 0) return { ddr: name.slice(0, comma), hbm: name.slice(comma + 1) };
  if (fs.existsSync(name) && !fs.statSync(name).isDirectory()) return { prepared: name };
  if (name !== '') {
    const ddr = sideFile(name, 'ddr');
    const hbm = sideFile(name, 'hbm');
    if (ddr && hbm) return { ddr, hbm };
    if (ddr || hbm) {
      throw new IoError(`trace ${quote(name)}: found ${ddr || hbm} but no ${ddr ? 'HBM' : 'DDR'} trace beside it `
        + `(${path.basename(name)}${ddr ? '.hbm.*' : '.ddr.*'})`);
    }
  }
  throw new IoError(`trace ${quote(name)}: no such file, and no ${name}.ddr.* + ${name}.hbm.* pair (the npm package `
    + 'ships no traces); also DDR_FILE,HBM_FILE, a preprocessed PAIR.bin or synth:PATTERN');
}

// Makes the pair named `name` known to the core under that name: "DDR,HBM" files, PREFIX, a
// preprocessed file, or a synth: name the core generates itself.
function provide(sysgym, name) {
  if (name.startsWith('synth:')) return;
  const files = pairFiles(name);
  if (!files.prepared) {
    sysgym.memtier.addTraces(name, read(files.ddr), read(files.hbm));
    return;
  }
  const data = read(name);
  if (!MAGIC.every((b, i) => data[i] === b)) {
    throw new TraceFormatError(`${name}: a single trace cannot drive the env; give DDR_FILE,HBM_FILE or a pair preprocessed by \`sysgym memtier preprocess\``);
  }
  sysgym.memtier.addPrepared(name, data);
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

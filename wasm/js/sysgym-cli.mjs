#!/usr/bin/env node
// `sysgym` for users with only Node: estimate, run and compare with the native tool's flags,
// on the WebAssembly core. With --json the output is the native tool's, byte for byte (the
// reports are built by the same C++); without it, the same report as key/value lines.
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
const COMMANDS = {
  estimate: {
    ...windowFlags, ddr: { type: 'string' }, hbm: { type: 'string' }, input: { type: 'string' },
    'hbm-range': { type: 'string', multiple: true }, measured: { type: 'string' },
    'hbm-factor': { type: 'string' }, json: { type: 'boolean' },
  },
  run: {
    trace: { type: 'string', multiple: true }, policy: { type: 'string' }, config: { type: 'string' },
    'policy-config': { type: 'string' }, seed: { type: 'string' }, record: { type: 'string' }, json: { type: 'boolean' },
  },
  compare: {
    ...windowFlags, ddr: { type: 'string' }, hbm: { type: 'string' }, input: { type: 'string' },
    trace: { type: 'string' }, 'hbm-capacity': { type: 'string' }, config: { type: 'string' },
    policies: { type: 'string' }, seed: { type: 'string' }, json: { type: 'boolean' },
  },
};

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

// Makes the pair named `name` known to the core: "DDR,HBM" files, a preprocessed file, or a
// synth: name the core generates itself.
function provide(sysgym, name) {
  if (name.startsWith('synth:')) return;
  const comma = name.indexOf(',');
  if (comma >= 0) {
    sysgym.addTraces(name, read(name.slice(0, comma)), read(name.slice(comma + 1)));
    return;
  }
  const data = read(name);
  if (!MAGIC.every((b, i) => data[i] === b)) {
    throw new TraceFormatError(`${name}: a single trace cannot drive the env; give DDR_FILE,HBM_FILE or a pair preprocessed by \`sysgym preprocess\``);
  }
  sysgym.addPrepared(name, data);
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

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (!COMMANDS[command]) {
    process.stderr.write('usage: sysgym estimate|run|compare [flags] (the native tool\'s flags; see its --help)\n');
    process.exit(2);
  }
  let values;
  try {
    ({ values } = parseArgs({ args, options: COMMANDS[command], strict: true }));
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
    print(sysgym.estimateReport(name, windowOptions(values), values['hbm-range'] ?? [],
      values['hbm-factor'] ?? '1', measured), values.json);
  } else if (command === 'run') {
    const traces = values.trace ?? [];
    const config = jsonText(values.config, '--config');
    const overrides = traces.length > 0 ? { trace: traces.join(',') } : {};
    provide(sysgym, overrides.trace ?? JSON.parse(config || '{}').trace ?? '');
    const seed = sysgym.checkSeed(values.seed ?? '0', '--seed');
    const [report, recorded] = sysgym.runReport(config, overrides, values.policy ?? '', jsonText(values['policy-config'],
      '--policy-config'), seed, values.record !== undefined);
    if (values.record !== undefined) writeAtomically(values.record, `${recorded}\n`);
    print(report, values.json);
  } else {
    const trace = values.trace ?? values.input ?? (values.ddr ? `${values.ddr},${values.hbm}` : undefined);
    if (trace === undefined) throw new ConfigError('give the pair with --ddr FILE --hbm FILE, --input FILE or --trace NAME');
    provide(sysgym, trace);
    const overrides = { trace, 'hbm_capacity': values['hbm-capacity'] ?? '', ...windowOptions(values) };
    if (overrides.mode !== undefined) {
      overrides.window_mode = overrides.mode;
      delete overrides.mode;
    }
    print(sysgym.compareReport(jsonText(values.config, '--config'), overrides,
      values.policies ? values.policies.split(',') : [], sysgym.checkSeed(values.seed ?? '0', '--seed')), values.json);
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

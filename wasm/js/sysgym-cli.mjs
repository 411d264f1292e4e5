#!/usr/bin/env node
// `sysgym` for users with only Node: estimate, run and compare with the native tool's flags,
// on the WebAssembly core. With --json the output is the native tool's, byte for byte (the
// reports are built by the same C++); without it, the same report as key/value lines.
import fs from 'node:fs';
import { parseArgs } from 'node:util';

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

function read(path) {
  try {
    return fs.readFileSync(path);
  } catch (e) {
    throw new (class IoError extends SysgymError {})(`cannot open '${path}': ${e.code === 'ENOENT' ? 'No such file or directory' : e.message}`);
  }
}

function jsonText(text, flag) {
  if (text === undefined) return '';
  const trimmed = text.trimStart();
  const source = trimmed.startsWith('{') || trimmed.startsWith('[') ? text : read(text).toString('utf8');
  try {
    JSON.parse(source);
  } catch (e) {
    throw new ConfigError(`${flag}: not valid JSON (${e.message})`);
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

function windowOptions(v, numeric) {
  const w = {};
  if (v.mode !== undefined) w.mode = v.mode;
  if (v.unit !== undefined) w.unit = v.unit;
  const keys = { 'window-len': 'window_len', 'page-size': 'page_size', 'cpu-cycles-per-ms': 'cpu_cycles_per_ms' };
  for (const [flag, key] of Object.entries(keys)) {
    if (v[flag] !== undefined) w[key] = numeric ? Number(v[flag]) : v[flag];
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
    process.stderr.write(`sysgym: ${e.message}\n`);
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
    print(sysgym.estimateReport(name, windowOptions(values, true), values['hbm-range'] ?? [],
      values['hbm-factor'] ? Number(values['hbm-factor']) : 1, measured), values.json);
  } else if (command === 'run') {
    const traces = values.trace ?? [];
    const config = jsonText(values.config, '--config');
    const overrides = traces.length > 0 ? { trace: traces.join(',') } : {};
    provide(sysgym, overrides.trace ?? JSON.parse(config || '{}').trace ?? '');
    const [report, recorded] = sysgym.runReport(config, overrides, values.policy ?? '', jsonText(values['policy-config'],
      '--policy-config'), Number(values.seed ?? 0), values.record !== undefined);
    if (values.record !== undefined) fs.writeFileSync(values.record, `${recorded}\n`);
    print(report, values.json);
  } else {
    const trace = values.trace ?? values.input ?? (values.ddr ? `${values.ddr},${values.hbm}` : undefined);
    if (trace === undefined) throw new ConfigError('give the pair with --ddr FILE --hbm FILE, --input FILE or --trace NAME');
    provide(sysgym, trace);
    const overrides = { trace, 'hbm_capacity': values['hbm-capacity'] ?? '', ...windowOptions(values, false) };
    if (overrides.mode !== undefined) {
      overrides.window_mode = overrides.mode;
      delete overrides.mode;
    }
    print(sysgym.compareReport(jsonText(values.config, '--config'), overrides,
      values.policies ? values.policies.split(',') : [], Number(values.seed ?? 0)), values.json);
  }
}

main().catch((e) => {
  if (e instanceof SysgymError) {
    process.stderr.write(`sysgym: ${e.name}: ${e.message}\n`);
    process.exit(1);
  }
  throw e;
});

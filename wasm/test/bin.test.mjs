// The package's `sysgym` bin prints what the native tool prints with --json, byte for byte,
// and fails the same way on bad input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { nativeTool, packageDir } from './helpers.mjs';

const bin = path.join(packageDir, 'sysgym-cli.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-bin-'));
const prefix = path.join(tmp, 'pair');
execFileSync(nativeTool, ['synth', '--pattern', 'phased', '--samples', '6000', '--footprint', '32MiB', '--seed', '3',
  '--mixed', '0x7f3a00000000:0x7f3a00400000', '-o', prefix]);
const ddr = `${prefix}.ddr.csv`;
const hbm = `${prefix}.hbm.csv`;

function both(args) {
  const native = spawnSync(nativeTool, args, { encoding: 'utf8' });
  const wasm = spawnSync('node', [bin, ...args], { encoding: 'utf8' });
  return { native, wasm };
}

test('estimate --json is identical', () => {
  const { native, wasm } = both(['estimate', '--ddr', ddr, '--hbm', hbm, '--hbm-range', '0x7f3a00000000:0x7f3a00400000',
    '--measured', `${prefix}.mixed.csv`, '--mode', 'aligned', '--json']);
  assert.equal(native.status, 0, native.stderr);
  assert.equal(wasm.stdout, native.stdout);
});

test('run --json and the recorded episode are identical', () => {
  const args = (record) => ['run', 'memtier', `trace=${ddr},${hbm}`, '--policy', 'lfu-hemem', '--seed', '2',
    '--config', '{"hbm_capacity": "10%", "window_len": 2e6}', '--json', '--record', record];
  const native = spawnSync(nativeTool, args(path.join(tmp, 'native.json')), { encoding: 'utf8' });
  const wasm = spawnSync('node', [bin, ...args(path.join(tmp, 'wasm.json'))], { encoding: 'utf8' });
  assert.equal(native.status, 0, native.stderr);
  assert.equal(wasm.stdout, native.stdout);
  assert.equal(fs.readFileSync(path.join(tmp, 'wasm.json'), 'utf8'), fs.readFileSync(path.join(tmp, 'native.json'), 'utf8'));
});

test('compare --json is identical', () => {
  const { native, wasm } = both(['compare', 'memtier', `trace=${ddr},${hbm}`, '--set', 'hbm_capacity=10%', 'window_len=2e6',
    '--policies', 'all-ddr,static-oracle,lru,memtis', '--json']);
  assert.equal(native.status, 0, native.stderr);
  assert.equal(wasm.stdout, native.stdout);
});

test('bad input exits 1 with the same message', () => {
  const { native, wasm } = both(['run', 'memtier', 'trace=synth:phased:2000', '--policy', 'lru', '--config', '{"bins": 0}']);
  assert.equal(native.status, 1);
  assert.equal(wasm.status, 1);
  assert.equal(wasm.stderr, native.stderr);
  const missing = both(['estimate', '--ddr', path.join(tmp, 'nope.csv'), '--hbm', hbm]);
  assert.equal(missing.wasm.status, 1);
  assert.equal(missing.wasm.stderr, missing.native.stderr);
  const key = both(['compare', 'memtier', 'trace=synth:phased:2000', 'bns=16']);
  assert.equal(key.wasm.status, 1);
  assert.equal(key.wasm.stderr, key.native.stderr);
  assert.match(key.native.stderr, /unknown key 'bns' \(did you mean 'bins'\?\)/);
  const env = both(['run', 'memtir', '--policy', 'lru']);
  assert.equal(env.wasm.status, 1);
  assert.equal(env.wasm.stderr, env.native.stderr);
});

test('without --json, estimate, run, compare and describe print the native tool\'s text, and list its envs', () => {
  const record = (name) => path.join(tmp, name);
  for (const args of [
    ['list'], ['list', '--json'], ['describe'], ['describe', 'memtier', 'bins=16', 'hbm_capacity=10%'],
    ['describe', 'trace=xz', '--set', 'action_mode=discrete', '--json'],
    ['memtier', 'estimate', '--ddr', ddr, '--hbm', hbm, '--hbm-range', '0x7f3a00000000:0x7f3a00400000', '--measured', `${prefix}.mixed.csv`],
    ['compare', 'memtier', `trace=${prefix}`, 'hbm_capacity=10%'],
    ['run', 'memtier', 'trace=xz', 'hbm_capacity=5%', 'episode_length=40', '--policy', 'memtis', '--seed', '3'],
    // tensorplace: the same plans and times (the simulation is bit-identical).
    ['compare', 'tensorplace', 'model=inception_v4', 'batch=2', 'fast_memory=30%', '--json'],
    ['run', 'tensorplace', 'model=densenet121', 'fast_memory=1:1', '--policy', 'random', '--seed', '4', '--json'],
  ]) {
    const { native, wasm } = both(args);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(wasm.status, 0, wasm.stderr);
    assert.equal(wasm.stdout, native.stdout, args.join(' '));
  }
  const recorded = (file) => ['run', 'memtier', 'trace=synth:phased:3000', '--policy', 'lru', '--record', record(file)];
  const native = spawnSync(nativeTool, recorded('n.json'), { encoding: 'utf8' });
  const wasm = spawnSync('node', [bin, ...recorded('w.json')], { encoding: 'utf8' });
  assert.equal(wasm.stdout.replace('w.json', 'n.json'), native.stdout, 'the record line too');
});

test('every command\'s --help is the native tool\'s, then what differs in the package', () => {
  for (const [command, native] of [[['list']], [['describe']], [['run']], [['compare']], [['check']], [['train']], [['eval']],
    [['profile']], [['memtier', 'estimate']], [['estimate'], ['memtier', 'estimate']], [['memtier', 'inspect']],
    [['inspect'], ['memtier', 'inspect']]]) {
    const r = spawnSync('node', [bin, ...command, '--help'], { encoding: 'utf8' });
    assert.equal(r.status, 0, `${command.join(' ')} --help: ${r.stderr}`);
    const expected = execFileSync(nativeTool, [...(native ?? command), '--help'], { encoding: 'utf8' });
    assert.ok(r.stdout.startsWith(expected), `${command.join(' ')} --help differs from the native tool's:\n${r.stdout}`);
  }
  assert.match(spawnSync('node', [bin, 'train', '--help'], { encoding: 'utf8' }).stdout, /--distributed is not here: MPI/);
  const top = spawnSync('node', [bin, '--help'], { encoding: 'utf8' });
  assert.equal(top.status, 0);
  assert.ok(top.stdout.startsWith(execFileSync(nativeTool, ['--help'], { encoding: 'utf8' })));
  assert.match(top.stdout, /In the npm package \(WebAssembly\): list, describe, run/);
  assert.equal(spawnSync('node', [bin, 'preprocess'], { encoding: 'utf8' }).status, 2, 'a native-only command is a usage error');
});

test('a mistake on the command line is the native tool\'s usage error, word for word, with its exit code', () => {
  for (const args of [['run', 'memtier'], ['run'], ['compare'], ['train', 'memtier', '--agent', 'ppo'], ['eval', 'memtier'],
    ['run', 'memtier', '--bogus'], ['run', 'memtier', '--policy', 'lru', '-x', 'extra'], ['run', 'memtier', '--policy'],
    ['compare', 'memtier', '--seed'], ['list', 'extra'], ['describe', '--seed', '1'], ['memtier', 'inspect'],
    ['memtier', 'inspect', 'a', 'b'], ['train', 'memtier', '--agent', 'sac', '-o', 'p.json'],
    ['train', '--resume', 'p.json.state', '--seed', '1', '-o', 'p.json'], ['train', '--resume', 'p.json.state', 'memtier', '-o', 'p.json'],
    ['memtier', 'estimate', '--hbm-factor'], ['memtier', 'estimate', '--ddr', ddr], ['memtier', 'estimate', '--ddr', ddr, '--trace', 'x'],
    ['memtier', 'estimate', '--trace', 'x', '--input', 'y'], ['profile', '--', 'list', 'extra']]) {
    const { native, wasm } = both(args);
    assert.equal(native.status, 2, `${args.join(' ')}: ${native.stderr}`);
    assert.equal(wasm.status, native.status, args.join(' '));
    assert.equal(wasm.stderr, native.stderr, args.join(' '));
  }
});

test('estimate takes a pair by --trace name, as the native tool does', () => {
  for (const trace of [prefix, 'phased', 'synth:phased:3000']) {
    const { native, wasm } = both(['memtier', 'estimate', '--trace', trace, '--hbm-range', '0x7f3a00000000:0x7f3a00400000', '--json']);
    assert.equal(native.status, 0, native.stderr);
    assert.equal(wasm.stdout, native.stdout, trace);
  }
  const { native, wasm } = both(['memtier', 'estimate']);
  assert.equal(native.status, 1);
  assert.equal(wasm.stderr, native.stderr, 'no pair at all');
});

test('a native-only flag is refused by name', () => {
  const r = spawnSync('node', [bin, 'train', 'memtier', 'trace=phased', '--distributed', '-o', path.join(tmp, 'p.json')], { encoding: 'utf8' });
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^sysgym: --distributed is the native tool's only: MPI jobs/);
});

test('a family tool the bin lacks says it is the native tool\'s, not the general usage', () => {
  for (const args of [['looptune', 'tune'], ['tensorplace', 'ilp', '--model', 'vgg19'], ['inline', 'extract'], ['memtier', 'synth']]) {
    const r = spawnSync('node', [bin, ...args], { encoding: 'utf8' });
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, new RegExp(`^sysgym: '${args[0]} ${args[1]}' is the native tool's only`), r.stderr);
  }
  const unknown = both(['frobnicate']);
  assert.equal(unknown.wasm.status, 2);
  assert.equal(unknown.wasm.stderr, unknown.native.stderr);
  assert.match(unknown.wasm.stderr, /^unknown command 'frobnicate' \(the commands: run, compare, list/);
});

// The bin's check, train, eval and memtier inspect against the native tool: the same output, the
// same files (a training state resumes in either build), the same failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { dataDir, nativeTool, packageDir } from './helpers.mjs';

const bin = path.join(packageDir, 'sysgym-cli.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-bin-training-'));
const at = (name) => path.join(tmp, name);

function native(args) {
  return spawnSync(nativeTool, args, { encoding: 'utf8' });
}
function wasm(args) {
  return spawnSync('node', [bin, ...args], { encoding: 'utf8' });
}
function same(args) {
  const n = native(args);
  const w = wasm(args);
  assert.equal(n.status, 0, `${args.join(' ')}: ${n.stderr}`);
  assert.equal(w.status, 0, `${args.join(' ')}: ${w.stderr}`);
  assert.equal(w.stdout, n.stdout, args.join(' '));
}
function sameFailure(args, status = 1) {
  const n = native(args);
  const w = wasm(args);
  assert.equal(n.status, status, `${args.join(' ')}: native ${n.stderr}`);
  assert.equal(w.status, status, `${args.join(' ')}: wasm ${w.stderr}`);
  if (status === 1) assert.equal(w.stderr, n.stderr, args.join(' '));
}

// A short DQN run with a checkpoint; `tool` runs it, writing OUT.json beside OUT.csv.
const TRAIN = ['train', 'memtier', 'trace=xz', 'hbm_capacity=10%', 'bins=8', '--steps', '3000', '--curve-every', '1000',
  '--checkpoint-every', '2000', '--seed', '3'];
function train(run, out) {
  const r = run([...TRAIN, '-o', at(`${out}.json`), '--curve', at(`${out}.csv`)]);
  assert.equal(r.status, 0, r.stderr);
  return r;
}
const nativeRun = train(native, 'n');
const wasmRun = train(wasm, 'w');

function weights(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8')).network.layers.flatMap((l) => [...l.b, ...l.w.flat()]);
}

test('check prints what the native tool prints, for one env and for --all', () => {
  same(['check', 'memtier', 'bins=8']);
  same(['check', '--all', '--json']);
  sameFailure(['check']);
  sameFailure(['check', 'memtier', '--all']);
  sameFailure(['check', 'memtier', 'bins=0']);
});

test('train writes the native tool\'s curve, a policy of the same weights and a state either build resumes', () => {
  assert.equal(fs.readFileSync(at('w.csv'), 'utf8'), fs.readFileSync(at('n.csv'), 'utf8'));
  assert.match(wasmRun.stdout, /^trained dqn for 3000 env steps \(2 episodes\) in [\d.]+ s: \d+ steps\/s\nwrote .*w\.json and .*w\.csv\n$/);
  assert.equal(wasmRun.stderr.split('\n').length, nativeRun.stderr.split('\n').length, 'one progress line per curve point');
  // Matrix products sum in another order with the native build's SIMD: the weights agree to
  // rounding, not bit for bit.
  const [a, b] = [weights(at('w.json')), weights(at('n.json'))];
  assert.equal(a.length, b.length);
  const worst = Math.max(...a.map((x, i) => Math.abs(x - b[i]) / Math.max(1e-3, Math.abs(b[i]))));
  assert.ok(worst < 1e-9, `weights differ by ${worst} relative`);
  const file = JSON.parse(fs.readFileSync(at('w.json'), 'utf8'));
  assert.equal(file.training.threads, 1);
  for (const f of ['w.json.checkpoint', 'w.json.state']) assert.ok(fs.statSync(at(f)).size > 0, f);
  // The wasm-trained policy runs in the native tool, and a native state resumes in the bin.
  assert.equal(native(['run', 'memtier', 'trace=xz', '--policy', 'learned', '--policy-config', at('w.json')]).status, 0);
  const resume = (run, out) => run(['train', '--resume', at('n.json.state'), '--steps', '4000', '-o', at(`${out}.json`), '--curve', at(`${out}.csv`)]);
  const r = resume(wasm, 'wr');
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /^resumed dqn at 2000 env steps from /);
  assert.equal(resume(native, 'nr').status, 0);
  assert.equal(fs.readFileSync(at('wr.csv'), 'utf8'), fs.readFileSync(at('nr.csv'), 'utf8'));
});

test('train refuses what the native tool refuses', () => {
  for (const args of [
    ['train', 'memtier', '--steps', '0', '-o', at('x.json')],
    ['train', '-o', at('x.json')],
    ['train', 'memtier', 'bns=8', '-o', at('x.json')],
    ['train', 'memtier', '--agent', 'ppo', 'action_mode=discrete', '--steps', '10', '-o', at('x.json')],
    ['train', 'memtier', '--vary', 'bins', '-o', at('x.json')],
    ['train', '--resume', at('n.csv'), '-o', at('x.json')],
  ]) sameFailure(args);
  sameFailure(['train', 'memtier', '--agent', 'sac', '-o', at('x.json')], 2);
  sameFailure(['train', '--resume', at('n.json.state'), 'bins=4', '-o', at('x.json')], 2);
  sameFailure(['train', 'memtier', '--steps', '10'], 2);
  assert.ok(!fs.existsSync(at('x.json')), 'a refused run writes nothing');
});

test('eval prints the native tables, text and --json, and fails alike', () => {
  same(['eval', '--policy', at('n.json')]);
  same(['eval', 'memtier', '--policy', at('n.json'), '--policy', at('w.json'), '--vary', 'hbm_capacity=5%,20%',
    '--baselines', 'all-ddr,lru,static-oracle', '--json']);
  sameFailure(['eval', '--policy', at('n.csv')]);
  sameFailure(['eval', '--policy', path.join(tmp, 'missing.json')]);
  sameFailure(['eval', 'memtir', '--policy', at('n.json')]);
  sameFailure(['eval', '--policy', at('n.json'), '--vary', 'trace=nosuchtrace']);
  sameFailure(['eval'], 2);
  // Several episode seeds pool into one row each: the mean, the primary metric's range, runs.
  same(['eval', 'memtier', '--policy', at('n.json'), '--seeds', '2', '--baselines', 'random,lru', '--json']);
  sameFailure(['eval', '--policy', at('n.json'), '--seeds', '0']);
  // The held-out protocol reads the source tree's manifests: the native tool's only.
  const split = wasm(['eval', 'memtier', '--split', 'held-out']);
  assert.equal(split.status, 2);
  assert.match(split.stderr, /--split is the native tool's only/);
});

test('memtier inspect prints the native report of a trace and of a preprocessed pair', () => {
  const pair = at('pair.bin');
  execFileSync(nativeTool, ['memtier', 'preprocess', '--ddr', path.join(dataDir, 'synth/phased.ddr.csv'),
    '--hbm', path.join(dataDir, 'synth/phased.hbm.csv'), '-o', pair], { stdio: 'ignore' });
  for (const file of [path.join(dataDir, 'synth/phased.ddr.csv'), path.join(dataDir, 'real/xz.ddr.bin'), pair]) {
    same(['memtier', 'inspect', file]);
    same(['inspect', file, '--json', '--page-size', '16', '--interval-distance', '30', '--cpu-cycles-per-ms', '2e6']);
  }
  sameFailure(['memtier', 'inspect', at('n.json')]);
  sameFailure(['memtier', 'inspect', path.join(dataDir, 'synth/phased.ddr.csv'), '--page-size', '99']);
  sameFailure(['memtier', 'inspect', path.join(tmp, 'missing.csv')]);
});

// The profiler in the npm package: known busy loops found again under Node (the test module's
// tests/profiling/busy_loops.hpp, as natively), a training run broken down with its JS <->
// WebAssembly crossings counted, the bin's `profile` command and its errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ConfigError, load, packageDir } from './helpers.mjs';

const testPackage = process.env.SYSGYM_TEST_PACKAGE ?? path.join(packageDir, '../test-package');
const { default: createCore } = await import(path.join(testPackage, 'sysgym_core.cjs'));
const { profile } = await import(path.join(testPackage, 'profiling.mjs'));
const bin = path.join(packageDir, 'sysgym-cli.mjs');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-profile-'));
const sysgym = await load();

const row = (report, op) => report.ops.find((r) => r.op === op);

// JS spinning for `ms` of performance.now time; the length it really had.
function spin(ms) {
  const start = performance.now();
  let now = start;
  while (now - start < ms) now = performance.now();
  return now - start;
}

test('known busy loops in four categories and in JS are reported within 5 % each under Node', async () => {
  const core = await createCore();
  const ops = ['test.simulate', 'test.infer', 'test.learn', 'test.outer'];
  let run;
  let loops;
  let js;
  const off = (got, want) => Math.abs(got - want) / want;
  // As natively: only a preemption between a loop and its scope's edge moves a figure; a loaded
  // machine gets up to three tries.
  for (let attempt = 0; attempt < 3; ++attempt) {
    js = 0;
    run = await profile(core, () => {
      js += spin(15);
      loops = JSON.parse(core.testBusyRoundsJson());
      js += spin(15);
    });
    const good = ops.every((op) => off(row(run.report, op).self_ms, loops[op]) <= 0.05) &&
      off(run.report.unattributed_ms, js) <= 0.05;
    if (good) break;
  }
  const r = run.report;
  for (const op of ops) assert.ok(off(row(r, op).self_ms, loops[op]) <= 0.05, `${op}: ${row(r, op).self_ms} ms reported, ${loops[op]} spun\n${run.text}`);
  assert.ok(off(r.unattributed_ms, js) <= 0.05, `JS: ${r.unattributed_ms} ms reported, ${js} spun\n${run.text}`);
  assert.ok(loops['test.learn'] >= 72);
  assert.equal(row(r, 'test.simulate').count, 4);
  assert.equal(row(r, 'test.simulate').category, 'simulation');
  assert.equal(r.crossings.count, 1);
  assert.deepEqual(r.crossings.calls.map((c) => [c.name, c.count]), [['testBusyRoundsJson', 1]]);
  assert.ok(Math.abs(r.sum_check.self_plus_unattributed_ms - r.sum_check.corrected_wall_ms) < 1e-6);
});

test('a training run: its operations, the crossings per call and the timeline', async () => {
  const trainer = sysgym.trainer({ env: 'memtier-v0', settings: ['trace=synth:phased', 'bins=16'], agent: 'ppo', curveEvery: 500 });
  const env = sysgym.make('memtier-v0', { trace: 'synth:phased', bins: 16 });
  env.reset({ seed: 1 });
  const run = await sysgym.profile(() => {
    for (let i = 0; i < 50; ++i) env.step(env.actionSpace.sample());
    trainer.train(2000);
    return 'trained';
  }, { maxEvents: 1000 });
  assert.equal(run.result, 'trained');
  const r = run.report;
  assert.ok(row(r, 'learner.update').count >= 1);
  assert.ok(row(r, 'policy.act').count >= 2000);
  assert.equal(row(r, 'env.step').count, 2000 + 50);
  const calls = Object.fromEntries(r.crossings.calls.map((c) => [c.name, c.count]));
  assert.equal(calls['EnvHandle.step'], 50);
  assert.equal(calls['TrainerHandle.advance'], 4);  // one per curve point
  const boundary = row(r, 'js-wasm.crossing');
  assert.equal(boundary.category, 'js-wasm boundary');
  assert.equal(boundary.count, r.crossings.count);
  assert.ok(r.categories_ms.learning > 0 && r.categories_ms.simulation > 0 && r.categories_ms.inference > 0);
  assert.ok(Math.abs(r.sum_check.self_plus_unattributed_ms - r.sum_check.corrected_wall_ms) < 1e-6);
  assert.match(run.text, /^operation +category/);
  assert.match(run.text, /JS-wasm crossings at/);
  const trace = run.chromeTrace();
  const tracks = new Set(trace.traceEvents.filter((e) => e.ph === 'X').map((e) => e.tid));
  assert.deepEqual([...tracks].sort(), [1, 2]);
  assert.ok(trace.traceEvents.some((e) => e.name === 'EnvHandle.step' && e.tid === 2));
  trainer.dispose();
  env.dispose();
  // Profiling is off again: nothing is wrapped, a second profile starts.
  const again = await sysgym.profile(() => sysgym.envIds());
  assert.deepEqual(again.report.crossings.calls.map((c) => c.name), ['envIdsJson']);
});

test('a failing function passes its error through, or comes back partial; nesting is refused', async () => {
  const fail = () => sysgym.make('memtier-v0', { no_such_key: 1 });
  await assert.rejects(sysgym.profile(fail), ConfigError);
  const partial = await sysgym.profile(fail, { partial: true });
  assert.equal(partial.report.partial, true);
  assert.ok(partial.error instanceof ConfigError);
  await assert.rejects(sysgym.profile(() => sysgym.profile(() => 1)), (e) => e instanceof ConfigError && /nested/.test(e.message));
  await assert.rejects(sysgym.profile(() => 1, { maxEvents: -1 }), /maxEvents/);
  // A failure left profiling off.
  assert.equal((await sysgym.profile(() => 7)).result, 7);
});

test('the bin profiles any command: the table, --json with the unprofiled time, --chrome-trace, errors', () => {
  const runBin = (...args) => spawnSync('node', [bin, ...args], { encoding: 'utf8' });
  const text = runBin('profile', '--', 'run', 'memtier-v0', 'trace=synth:phased', '--policy', 'lru');
  assert.equal(text.status, 0, text.stderr);
  assert.match(text.stdout, /^gap_closed|summary|operation/m);
  assert.match(text.stdout, /env\.step +simulation/);
  assert.match(text.stdout, /unprofiled [\d.]+ ms \(fastest of 1\)/);
  const trace = path.join(tmp, 'trace.json');
  const json = runBin('profile', '--json', '--no-baseline', '--chrome-trace', trace, '--', 'run', 'memtier-v0', 'trace=synth:phased', '--policy', 'lru', '--json');
  assert.equal(json.status, 0, json.stderr);
  const r = JSON.parse(json.stdout);
  assert.deepEqual(r.command, ['run', 'memtier-v0', 'trace=synth:phased', '--policy', 'lru', '--json']);
  assert.ok(row(r, 'env.step').count > 0);
  assert.equal(r.partial, false);
  assert.equal(JSON.parse(json.stderr.slice(json.stderr.indexOf('{'))).policy, 'lru', 'the command\'s own report went to stderr');
  assert.ok(JSON.parse(fs.readFileSync(trace, 'utf8')).traceEvents.length > 0);
  // Errors: the command's own, with --partial the profile too; a trace path that cannot be written;
  // nesting; no command.
  const failing = runBin('profile', '--no-baseline', '--', 'run', 'memtier-v0', 'no_such_key=1', '--policy', 'lru');
  assert.equal(failing.status, 1);
  assert.match(failing.stderr, /^sysgym: UnknownNameError: .*no_such_key/m);
  const partial = runBin('profile', '--no-baseline', '--partial', '--', 'run', 'memtier-v0', 'no_such_key=1', '--policy', 'lru');
  assert.equal(partial.status, 1);
  assert.match(partial.stdout, /^partial profile: the command failed/);
  const unwritable = runBin('profile', '--chrome-trace', path.join(tmp, 'missing', 't.json'), '--', 'list');
  assert.equal(unwritable.status, 1);
  assert.match(unwritable.stderr, /--chrome-trace: cannot write .*its folder .* does not exist/);
  assert.match(runBin('profile', '--', 'profile', '--', 'list').stderr, /cannot be nested/);
  assert.match(runBin('profile').stderr, /name the command to profile after --/);
});

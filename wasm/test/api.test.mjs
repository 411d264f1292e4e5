import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';

import {
  load, dataDir, nativeTool, ConfigError, TraceFormatError, UnknownNameError, ApiMisuseError, InvalidActionError, SysgymError,
} from './helpers.mjs';

const sysgym = await load();
const config = { trace: 'synth:phased:20000:5:32', bins: 16, hbm_capacity: '10%' };

test('lists envs and policies', () => {
  assert.deepEqual(sysgym.envIds(), ['inline-v0', 'looptune-v0', 'memtier-v0', 'tensorplace-v0']);
  const names = sysgym.policies('memtier-v0').map((p) => p.name);
  assert.ok(names.includes('static-oracle') && names.includes('lfu-hemem'));
  assert.deepEqual(sysgym.policies().map((p) => p.name), sysgym.policies(sysgym.envIds()[0]).map((p) => p.name), 'the first env by default');
  assert.deepEqual(sysgym.policies('memtier').map((p) => p.name), names);
  assert.throws(() => sysgym.policies('memtir'), (e) => e instanceof UnknownNameError && /did you mean 'memtier'/.test(e.message));
});

test('the config schema is the one core declares: limits and the keys a learned policy fixes', () => {
  const schema = sysgym.configSchema('memtier-v0');
  const bins = schema.find((k) => k.name === 'bins');
  assert.deepEqual([bins.type, bins.min, bins.max, bins.default], ['integer', 1, 65536, 64]);
  assert.deepEqual(schema.filter((k) => k.fixed_by_policy).map((k) => k.name).sort(),
    ['action_mode', 'admission', 'bins', 'history', 'interval_distance']);
  assert.throws(() => sysgym.configSchema('nope'), UnknownNameError);
  assert.deepEqual(sysgym.configSchema('inline').filter((k) => k.policy_task).map((k) => k.name).sort(),
    ['baseline', 'objective', 'size_limit', 'size_weight']);
});

test('a learned policy runs on what it was trained for, and a config that contradicts it is a ConfigError', () => {
  const policyConfig = JSON.parse(fs.readFileSync(path.join(dataDir, 'policies/inline/fyp-instructions.json'), 'utf8'));
  const episode = sysgym.runEpisode({ env: 'inline', config: {}, policy: 'learned', policyConfig, seed: 0 });
  const native = JSON.parse(execFileSync(nativeTool, ['run', 'inline', '--policy', 'learned', '--policy-config',
    path.join(dataDir, 'policies/inline/fyp-instructions.json'), '--json'], { encoding: 'utf8' }));
  assert.equal(episode.summary.score, native.score, 'scored on instructions, as natively');
  assert.throws(() => sysgym.runEpisode({ env: 'inline', config: { objective: 'size' }, policy: 'learned', policyConfig, seed: 0 }),
    (e) => e instanceof ConfigError && /objective='size' contradicts the learned policy, which was trained with objective='instructions'/.test(e.message));
});

test('an env says how its episodes compare, as `sysgym compare` ranks and shows them', () => {
  const env = sysgym.make('memtier', config);
  assert.equal(env.primaryMetric, 'gap_closed');
  assert.deepEqual(env.ranking, { key: 'total_ms', higherIsBetter: false });
  assert.deepEqual(env.reportColumns, ['estimated_ms', 'migration_ms', 'total_ms', 'gap_closed', 'bytes_moved']);
  const rows = JSON.parse(sysgym.compareReport('memtier', JSON.stringify(config), [], ['lru', 'all-ddr', 'static-oracle'], 0));
  const totals = rows.map((r) => r[env.ranking.key]);
  assert.deepEqual(totals, [...totals].sort((a, b) => a - b));
  env.dispose();
});

test('reset and step follow Gymnasium semantics with zero-copy observations', () => {
  const env = sysgym.make('memtier', config);
  assert.equal(env.actionSpace.toString(), 'MultiBinary(16)');
  assert.equal(env.observationLayout.length, env.observationSpace.flatSize);
  const { observation, info } = env.reset({ seed: 3 });
  assert.ok(observation instanceof Float32Array);
  assert.equal(observation.length, env.observationSpace.flatSize);
  assert.equal(info.window, -1);
  let result;
  let steps = 0;
  do {
    result = env.step(new Array(16).fill(1));
    steps += 1;
    assert.ok(env.observationSpace.contains(result.observation));
    assert.ok(result.info.hbm_used_bytes <= env.facts.hbm_capacity_bytes);
  } while (!result.terminated && !result.truncated);
  assert.equal(steps, env.facts.windows);
  assert.equal(result.terminated, true);
  const summary = env.summary();
  assert.equal(summary.windows, steps);
  assert.ok(summary.estimated_ms < summary.ddr_ms);
  env.dispose();
});

test('spaces sample members deterministically and check membership', () => {
  const env = sysgym.make('memtier', { ...config, action_mode: 'discrete' });
  assert.equal(env.actionSpace.toString(), 'Discrete(33)');
  const a = env.actionSpace.sample(7);
  const b = env.actionSpace.sample(7);
  assert.deepEqual(a, b);
  assert.ok(env.actionSpace.contains(a));
  assert.ok(!env.actionSpace.contains([33]));
  assert.ok(!env.actionSpace.contains([1.5]));
  env.reset({ seed: 0 });
  assert.equal(env.step(0).info.promoted_bytes, 0);
  env.dispose();
});

test('errors are Error subclasses named as in C++ with the core message', () => {
  assert.throws(() => sysgym.make('memtir'), (e) => e instanceof UnknownNameError && e instanceof SysgymError &&
    e.name === 'UnknownNameError' && e.message === "unknown env 'memtir' (did you mean 'memtier'?); valid: inline-v0, looptune-v0, memtier-v0, tensorplace-v0");
  assert.throws(() => sysgym.make('memtier', { ...config, hbm_capcity: '1MiB' }),
    (e) => e instanceof ConfigError && e.message.startsWith("memtier-v0 config: unknown key 'hbm_capcity' (did you mean 'hbm_capacity'?)"));
  assert.throws(() => sysgym.make('memtier', { ...config, hbm_capacity: 100 }),
    (e) => e instanceof ConfigError && e.message.includes('holds less than one page'));
  const env = sysgym.make('memtier', config);
  assert.throws(() => env.step(new Array(16).fill(0)), (e) => e instanceof ApiMisuseError);
  env.reset({ seed: 0 });
  assert.throws(() => env.step(new Array(16).fill(2)), (e) => e instanceof InvalidActionError &&
    e.message === 'memtier-v0 action [2, 2, 2, 2, 2, 2, 2, 2, ...] is not in MultiBinary(16): element 0 is 2, expected 0 or 1');
  assert.throws(() => env.step([1, 0]), InvalidActionError);
  env.step(new Array(16).fill(0));  // the env is still usable
  env.dispose();
  assert.throws(() => env.reset(), (e) => e instanceof ApiMisuseError && e.message.includes('disposed'));
  env.dispose();  // twice is harmless
});

test('malformed traces are refused with the file and line', () => {
  assert.throws(() => sysgym.memtier.addTraces('bad', 'Timestamp,Vaddr\n1,0x10\n2,zz\n', 'Timestamp,Vaddr\n1,0x10\n'),
    (e) => e instanceof TraceFormatError && e.message === "bad (DDR):3: column 'Vaddr': 'zz' is not an address (decimal or 0x-hex)");
  assert.throws(() => sysgym.memtier.addTraces('empty', '', 'x'), (e) => e instanceof TraceFormatError && e.message === 'empty (DDR): the file is empty');
  assert.throws(() => sysgym.memtier.addPrepared('junk', new Uint8Array([1, 2, 3])), TraceFormatError);
});

test('shipped CSV traces load from bytes and estimate like the CLI', () => {
  const ddr = fs.readFileSync(path.join(dataDir, 'synth/phased.ddr.csv'));
  const hbm = fs.readFileSync(path.join(dataDir, 'synth/phased.hbm.csv'));
  sysgym.memtier.addTraces('shipped', ddr, hbm);
  const env = sysgym.make('memtier', { trace: 'shipped', window_mode: 'memai' });
  assert.equal(env.facts.window_mode, 'memai');
  env.dispose();
  const e = sysgym.memtier.estimate('shipped', []);
  assert.equal(e.estimated_ms, e.ddr_ms);
});

test('data.add holds files under names that trace names resolve over, as natively', () => {
  const ddr = fs.readFileSync(path.join(dataDir, 'synth/phased.ddr.csv'));
  const hbm = fs.readFileSync(path.join(dataDir, 'synth/phased.hbm.csv'));
  sysgym.data.add('runs/phased.ddr.csv', ddr);
  sysgym.data.add('runs/phased.hbm.csv', hbm);
  const config = { hbm_capacity: '10%', episode_length: 20 };
  const byPrefix = sysgym.runEpisode({ env: 'memtier', config: { ...config, trace: 'runs/phased' }, policy: 'lru' });
  const byFiles = sysgym.runEpisode({ env: 'memtier', config: { ...config, trace: 'runs/phased.ddr.csv,runs/phased.hbm.csv' }, policy: 'lru' });
  assert.deepEqual(byPrefix.summary, byFiles.summary);
  assert.ok(byPrefix.summary.ddr_ms > 0);
  sysgym.data.add('lonely.ddr.csv', ddr);
  assert.throws(() => sysgym.make('memtier', { trace: 'lonely' }),
    (e) => e instanceof TraceFormatError && e.message === "trace 'lonely': found lonely.ddr.csv but no HBM trace beside it (lonely.hbm.*)");
  assert.throws(() => sysgym.make('memtier', { trace: 'runs/phased.ddr.csv' }),
    (e) => e instanceof TraceFormatError && /a single trace cannot drive the env/.test(e.message));
  assert.throws(() => sysgym.make('memtier', { trace: 'runs/phased.ddr.csv,nope' }),
    (e) => e instanceof UnknownNameError && e.message === "trace 'runs/phased.ddr.csv,nope': no file 'nope'");
  assert.throws(() => sysgym.data.add(7, ddr), (e) => e instanceof ApiMisuseError && /data.add: name/.test(e.message));
});

test('memtier.traces() rates the shipped traces as `sysgym memtier traces --json` does', () => {
  const rows = sysgym.memtier.traces({ hbmCapacity: '5%' });
  const native = execFileSync(nativeTool, ['memtier', 'traces', '--hbm-capacity', '5%', '--json'], { encoding: 'utf8' });
  assert.deepEqual(rows, JSON.parse(native));
  assert.deepEqual(rows.map((r) => r.trace), ['gcc-cc1', 'glpk', 'graphviz-sccmap', 'hpcc-randomaccess', 'hpcc-stream', 'kyotocabinet',
    'lammps', 'minisat', 'phased', 'sqlite', 'xz']);
  assert.ok(rows.every((r) => r.gap_share > 0 && r.static_oracle_gap_closed > 0));
});

test('under Node, trace names are files and the shipped pairs travel in the package, as natively', () => {
  const config = { hbm_capacity: '10%', episode_length: 30 };
  const run = (trace) => sysgym.runEpisode({ env: 'memtier', config: { ...config, trace }, policy: 'lfu-hemem' }).summary;
  const native = (trace) => JSON.parse(execFileSync(nativeTool, ['run', 'memtier', '--policy', 'lfu-hemem', '--config',
    JSON.stringify({ ...config, trace }), '--json'], { encoding: 'utf8' }));
  for (const trace of ['xz', 'phased']) {
    const [ours, theirs] = [run(trace), native(trace)];
    assert.ok(ours.windows === 30, `${trace}: ${ours.windows} windows`);
    for (const key of Object.keys(ours)) assert.equal(ours[key], theirs[key], `${trace} ${key}`);
  }
  const prefix = path.join(dataDir, 'real/sqlite');
  assert.deepEqual(run(prefix), run('sqlite'), 'a path prefix finds the same pair as its shipped name');
  assert.throws(() => sysgym.make('memtier', { trace: 'lamps' }),
    (e) => e instanceof UnknownNameError && /did you mean 'lammps'\? \(shipped: gcc-cc1, glpk, graphviz-sccmap, hpcc-randomaccess, hpcc-stream, kyotocabinet, lammps, minisat, phased, sqlite, xz\)/.test(e.message));
});

test('vector envs step every env in one call, with autoreset', () => {
  const envs = sysgym.makeVector('memtier', { ...config, episode_length: 5, random_start: true }, 4);
  assert.equal(envs.size, 4);
  const { observations } = envs.reset({ seed: 1 });
  assert.equal(observations.length, envs.observationSpace.flatSize);
  assert.equal(envs.observationSpace.flatSize, 4 * envs.singleObservationSpace.flatSize, 'the batched space holds every env\'s');
  let out;
  for (let i = 0; i < 5; i += 1) out = envs.step(new Float64Array(4 * 16).fill(1));
  assert.deepEqual(Array.from(out.truncated), [1, 1, 1, 1]);
  assert.equal(out.rewards.length, 4);
  assert.throws(() => envs.step([1]), InvalidActionError);
  envs.dispose();
});

test('views survive memory growth (large trace loaded mid-episode)', () => {
  const env = sysgym.make('memtier', config);
  env.reset({ seed: 0 });
  const before = Array.from(env.step(new Array(16).fill(1)).observation);
  // ~60 MB of CSV forces the heap to grow, detaching old views.
  const rows = ['Timestamp,Instrs,Vaddr,Phase'];
  for (let i = 1; i <= 1_500_000; i += 1) rows.push(`${i * 1000},${i * 100},0x${(0x7f0000000000 + (i % 50000) * 4096).toString(16)},0`);
  const text = rows.join('\n');
  sysgym.memtier.addTraces('large', text, text);
  const big = sysgym.make('memtier', { trace: 'large', bins: 8 });
  assert.equal(big.facts.windows > 500, true);
  const after = env.step(new Array(16).fill(1)).observation;
  assert.equal(after.length, before.length);
  assert.ok(after.every((x) => Number.isFinite(x)));
  big.dispose();
  env.dispose();
});

test('recorded episodes replay exactly', () => {
  const episode = sysgym.runEpisode({ env: 'memtier-v0', config, policy: 'random', seed: 4, record: true });
  assert.equal(episode.schema_version, 2);
  assert.deepEqual(sysgym.replayEpisode(episode), episode.summary);
  episode.steps[3].reward += 1;
  assert.throws(() => sysgym.replayEpisode(episode), (e) => e instanceof ApiMisuseError && e.message.startsWith('recorded episode: step 3'));
});

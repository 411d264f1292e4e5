// The npm package keeps Gymnasium's conventions and its promises on bad input: spaces that seed
// and sample (observation spaces too, batched spaces for vector envs), render() and close(),
// vector infos one array per key, and every malformed call a named sysgym error.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { ConfigError, InvalidActionError, TraceFormatError, load } from '../../build/wasm/package/index.mjs';

const sysgym = await load();
const config = { trace: 'synth:phased:5000', hbm_capacity: '10%', bins: 16, episode_length: 20 };

test('a space seeds its own generator: the same seed gives the same draws, the next draw differs', () => {
  const env = sysgym.make('memtier', config);
  for (const space of [env.actionSpace, env.observationSpace]) {
    assert.deepEqual(space.seed(3), [3]);
    const first = space.sample();
    const second = space.sample();
    space.seed(3);
    assert.deepEqual(space.sample(), first, `${space}: reseeding repeats the draws`);
    assert.notDeepEqual(second, first, `${space}: draws after a seed follow one another`);
    assert.ok(space.contains(first) && space.contains(second), `${space}: draws are members`);
  }
  assert.ok(env.observationSpace.sample() instanceof Float32Array);
  assert.ok(env.actionSpace.sample() instanceof Float64Array);
  assert.throws(() => env.observationSpace.seed(-1), ConfigError);
  env.close();
});

test('spaces say their shape and bounds as Gymnasium does', () => {
  const bins = sysgym.make('memtier', config);
  assert.equal(bins.actionSpace.type, 'MultiBinary');
  assert.equal(bins.actionSpace.n, 16);
  assert.deepEqual(bins.actionSpace.shape, [16]);
  assert.equal(bins.observationSpace.type, 'Box');
  assert.equal(bins.observationSpace.low.length, bins.observationSpace.flatSize);
  const discrete = sysgym.make('memtier', { ...config, action_mode: 'discrete' });
  assert.equal(discrete.actionSpace.n, 33);
  assert.deepEqual(discrete.actionSpace.shape, []);
  bins.close();
  discrete.close();
});

test('render() gives the env\'s frame arrays as copies, and close() disposes', () => {
  const env = sysgym.make('memtier', config);
  env.reset({ seed: 1 });
  env.step(env.actionSpace.sample(1));
  const frame = env.render();
  assert.deepEqual(Object.keys(frame), ['histogram', 'resident']);
  assert.equal(frame.histogram.length, 16);
  assert.ok(frame.resident instanceof Float32Array);
  const before = Array.from(frame.histogram);
  env.step(env.actionSpace.sample());
  assert.deepEqual(Array.from(frame.histogram), before, 'a rendered frame is a copy: later steps leave it alone');
  env.close();
  assert.throws(() => env.reset(), /disposed/);
});

test('a vector env\'s spaces are batched and its infos are one array per key', () => {
  const envs = sysgym.makeVector('memtier', config, 3);
  assert.equal(envs.numEnvs, 3);
  assert.deepEqual(envs.actionSpace.shape, [3, 16]);
  assert.equal(envs.actionSpace.flatSize, 48);
  assert.deepEqual(envs.singleActionSpace.shape, [16]);
  assert.equal(String(envs.actionSpace), '3 x MultiBinary(16)');
  assert.ok(!envs.actionSpace.contains(new Float64Array(16)), 'one env\'s action is not a batch');
  const { infos: resetInfos } = envs.reset({ seed: 2 });
  assert.equal(resetInfos.window.length, 3);
  envs.actionSpace.seed(5);
  const actions = envs.actionSpace.sample();
  assert.ok(envs.actionSpace.contains(actions));
  const r = envs.step(actions);
  assert.deepEqual(Object.keys(r.infos), envs.infoKeys);
  const n = envs.infoKeys.length;
  for (const [k, key] of envs.infoKeys.entries()) {
    assert.deepEqual(Array.from(r.infos[key]), [0, 1, 2].map((e) => r.infoRows[e * n + k]), `${key} per env`);
  }
  // Each env's info equals that of a single env stepped with its row of the batch.
  const one = sysgym.make('memtier', config);
  one.reset({ seed: 2 });
  const single = one.step(actions.slice(0, 16)).info;
  for (const key of envs.infoKeys) assert.equal(r.infos[key][0], single[key], key);
  envs.close();
  one.close();
});

test('malformed calls are named sysgym errors, never a raw TypeError', () => {
  const env = sysgym.make('memtier', config);
  env.reset({ seed: 0 });
  const cases = [
    [() => env.step(), /action must be an array of 16 numbers for MultiBinary\(16\), got nothing/],
    [() => env.step(null), /got null/],
    [() => env.step('hello'), /got a string \("hello"\)/],
    [() => env.step({ 0: 1 }), /got an object/],
    [() => env.step([1, 0, 'x', ...new Array(13).fill(0)]), /element 2 is "x", not a number/],
    [() => env.step([1, 0]), /has 2 elements, MultiBinary\(16\) expects 16/],
  ];
  for (const [call, message] of cases) assert.throws(call, (e) => e instanceof InvalidActionError && message.test(e.message), String(message));
  assert.throws(() => env.reset({ seed: 'abc' }), (e) => e instanceof ConfigError && /seed: 'abc'/.test(e.message));
  assert.throws(() => env.reset({ seed: -5 }), ConfigError);
  assert.throws(() => sysgym.make('memtier', { ...config, hbm_capacity: '150%' }),
    (e) => e instanceof ConfigError && /'hbm_capacity' percentage '150%' is more than the whole footprint/.test(e.message));
  assert.throws(() => sysgym.replayEpisode('{}'), (e) => e instanceof TraceFormatError && !/json\.exception/.test(e.message));
  const envs = sysgym.makeVector('memtier', config, 2);
  envs.reset({ seed: 0 });
  assert.throws(() => envs.step(), (e) => e instanceof InvalidActionError && /vector step: actions must be an array of 32 numbers/.test(e.message));
  env.close();
  envs.close();
});

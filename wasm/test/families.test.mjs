// A family that no line of wasm/ names: the test package (build/wasm/test-package) is the npm
// package plus tests/env's linewalk family, registered in one EMSCRIPTEN_BINDINGS block as a
// family registers its extras. The generic handles list it, check it, step it, record and replay
// it, and scope its policies to it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

import { packageDir } from './helpers.mjs';

const testPackage = process.env.SYSGYM_TEST_PACKAGE ?? path.join(packageDir, '../test-package');
if (!fs.existsSync(path.join(testPackage, 'sysgym_core.cjs'))) {
  throw new Error(`${testPackage} is not built: cmake --build --preset wasm --target sysgym_wasm_test_families`);
}
const { load, UnknownNameError } = await import(path.join(testPackage, 'index.mjs'));
const sysgym = await load();

test('the test family is registered beside memtier and its policies are its own', () => {
  assert.deepEqual(sysgym.envIds(), ['inline-v0', 'linewalk-v0', 'linewalk-v1', 'looptune-v0', 'memtier-v0', 'tensorplace-v0']);
  assert.deepEqual(sysgym.policies('linewalk').map((p) => p.name), ['constant', 'learned', 'random', 'walk-right']);
  assert.ok(!sysgym.policies('memtier').some((p) => p.name === 'walk-right'));
  assert.throws(() => sysgym.episode({ env: 'linewalk', config: {}, policy: 'lru' }),
    (e) => e instanceof UnknownNameError && /lru/.test(e.message));
  assert.deepEqual(sysgym.configSchema('linewalk').map((k) => k.name), ['length', 'max_steps', 'slip_percent']);
});

test('check_env passes on every linewalk id under Node', () => {
  for (const id of ['linewalk-v0', 'linewalk-v1']) {
    const passed = sysgym.checkEnv(id, { config: { length: 6, slip_percent: 20 }, seed: 4 });
    assert.ok(passed.length > 5, id);
  }
});

test('a linewalk episode steps, draws its frame, compares and replays through the generic handles', () => {
  const episode = sysgym.episode({ env: 'linewalk', config: { length: 6 }, policy: 'walk-right', seed: 0 });
  assert.deepEqual(episode.frameLayout, [{ name: 'cells', dtype: 'float32', size: 6 }]);
  assert.equal(episode.primaryMetric, 'position');
  assert.deepEqual(episode.ranking, { key: 'position', higherIsBetter: true });
  const steps = [];
  while (!episode.done) steps.push(episode.step());
  assert.equal(steps.length, 5);
  steps.forEach((s, i) => {
    assert.equal(s.info.position, i + 1);
    assert.deepEqual(Array.from(s.frame.cells), Array.from({ length: 6 }, (_, c) => (c === i + 1 ? 1 : 0)));
  });
  assert.deepEqual(episode.summary(), { position: 5, steps: 5 });
  const recording = episode.toJSON();
  const whole = sysgym.runEpisode({ env: 'linewalk', config: { length: 6 }, policy: 'walk-right', seed: 0, record: true });
  assert.equal(JSON.stringify(recording), JSON.stringify(whole));
  assert.equal(whole.return, steps.reduce((sum, s) => sum + s.reward, 0));
  const replay = sysgym.replay(recording);
  while (!replay.done) replay.step();
  assert.deepEqual(replay.summary(), episode.summary());
});

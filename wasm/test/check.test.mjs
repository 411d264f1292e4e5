// check_env under Node: every registered env keeps the env contract in the wasm build too.
import assert from 'node:assert/strict';
import test from 'node:test';

import { EnvCheckError, UnknownNameError, load } from './helpers.mjs';

const sysgym = await load();

test('every registered env passes check_env', () => {
  const ids = sysgym.envIds();
  assert.ok(ids.includes('memtier-v0'));
  for (const id of ids) {
    const passed = sysgym.checkEnv(id);
    assert.ok(passed.length >= 7, `${id}: ${passed.join('; ')}`);
    assert.ok(passed.some((line) => line.startsWith('episodes are bit-identical for a seed')));
  }
});

test('check_env refuses unknown envs and names what a config breaks', () => {
  assert.throws(() => sysgym.checkEnv('memtire'), (e) => e instanceof UnknownNameError && /did you mean 'memtier'/.test(e.message));
  assert.throws(() => sysgym.checkEnv('memtier', { config: { bins: 0 } }), /'bins' must be an integer in \[1, 65536\], got 0/);
  assert.ok(EnvCheckError.prototype instanceof Error);
});

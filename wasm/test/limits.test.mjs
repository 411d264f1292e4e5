// Resource limits in the browser build: inputs too large for the WebAssembly heap end in an Error
// naming the problem, and the module keeps working (in its own file: the heap stays grown).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, ConfigError, SysgymError } from './helpers.mjs';

const sysgym = await load();

test('a synthetic trace above the sample cap is refused before anything is allocated', () => {
  assert.throws(() => sysgym.make('memtier-v0', { trace: 'synth:random:1000000000' }),
    (e) => e instanceof ConfigError && e.message.startsWith('samples must be in [2, 50000000]'));
});

test('a trace that outgrows the 2 GiB heap is an out-of-memory Error, and the module goes on', () => {
  // 40 M samples need about 4.8 GB while the pair is built: more than a wasm32 heap can hold.
  assert.throws(() => sysgym.make('memtier-v0', { trace: 'synth:random:40000000' }),
    (e) => e instanceof SysgymError && e.message.startsWith('out of memory:'));
  const env = sysgym.make('memtier-v0', { trace: 'synth:phased:4000', bins: 4 });
  env.reset(1);
  const { reward } = env.step([1, 0, 0, 0]);
  assert.ok(Number.isFinite(reward));
  env.dispose();
});

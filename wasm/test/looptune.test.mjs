// looptune's extras in the npm package: a nest measured in this engine computes the right
// figures, the executor's benchmark runs the very nests the native tool runs (the searches that
// find them decide alike in both builds), and bad requests are named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { load, nativeTool } from './helpers.mjs';

const sysgym = await load();

test('a nest is measured in this engine with the model beside it', () => {
  const untuned = sysgym.looptune.measure({ kernel: 'matmul:64x48x32', min_seconds: 0.002 });
  assert.equal(untuned.kernel, 'matmul:64x48x32');
  assert.equal(untuned.micro_kernel, 'dot');
  assert.ok(untuned.gflops > 0 && untuned.gflops >= untuned.median_gflops, JSON.stringify(untuned));
  assert.ok(untuned.runs >= 3);
  const tuned = sysgym.looptune.measure({
    kernel: 'matmul:64x48x32', min_seconds: 0.002,
    loops: [{ var: 'm', size: 16 }, { var: 'm', size: 4 }, { var: 'k', size: 32 }, { var: 'n', size: 48 }],
  });
  assert.equal(tuned.micro_kernel, 'register block');
  assert.ok(tuned.model_gflops > untuned.model_gflops);
  assert.ok(sysgym.looptune.peak() > untuned.gflops, 'the peak nest outruns an untuned one');
});

test('the executor benchmark runs the native tool\'s nests', () => {
  const native = JSON.parse(execFileSync(nativeTool, ['looptune', 'bench', '--executor', '--json'], { encoding: 'utf8' }));
  const wasm = sysgym.looptune.executorBench({ minSeconds: 0.001 });
  assert.deepEqual(wasm.map((n) => [n.kernel, n.found_by, n.micro_kernel, n.loops]),
    native.map((n) => [n.kernel, n.found_by, n.micro_kernel, n.loops]));
  assert.ok(wasm.every((n) => n.gflops > 0));
});

test('bad looptune requests are named', () => {
  assert.throws(() => sysgym.looptune.measure({ kernel: 'matmul:4x4' }),
    (e) => e.name === 'ConfigError' && /matmul:4x4/.test(e.message));
  assert.throws(() => sysgym.looptune.measure({ kernl: 'matmul:4x4x4' }),
    (e) => e.name === 'ConfigError' && /did you mean 'kernel'/.test(e.message));
  assert.throws(() => sysgym.looptune.measure({ kernel: 'matmul:8x8x8', loops: [{ var: 'q', size: 8 }] }),
    (e) => e.name === 'ConfigError' && /'q'/.test(e.message));
  assert.throws(() => sysgym.looptune.executorBench({ minSeconds: 0 }), (e) => e.name === 'ApiMisuseError');
});

test('a looptune recording with an action out of its space, or one that no longer reproduces, is refused', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-looptune-'));
  const file = path.join(dir, 'episode.json');
  execFileSync(nativeTool, ['run', 'looptune-v0', 'kernel=matmul:64x96x128', '--policy', 'anneal', '--record', file]);
  const recorded = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.deepEqual(sysgym.replayEpisode(recorded), recorded.summary);
  const outOfSpace = structuredClone(recorded);
  outOfSpace.steps[3].action = [12];
  assert.throws(() => sysgym.replayEpisode(outOfSpace), (e) => e.name === 'InvalidActionError' && /12/.test(e.message));
  // Another legal action changes the nest, so the recorded reward no longer follows.
  const changed = structuredClone(recorded);
  const first = changed.steps.findIndex((step) => step.reward !== 0);
  changed.steps[first].action = [changed.steps[first].action[0] === 0 ? 1 : 0];
  assert.throws(() => sysgym.replayEpisode(changed), (e) => /reward/.test(e.message) && new RegExp(`step ${first}\\b`).test(e.message));
  fs.rmSync(dir, { recursive: true, force: true });
});

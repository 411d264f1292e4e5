// Episodes stepped a window at a time (what the playground draws): the same rewards, totals and
// recording as the native tool's whole-episode run, replays that check every reward, and errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ApiMisuseError, ConfigError, TraceFormatError, UnknownNameError, load, nativeTool } from './helpers.mjs';

const sysgym = await load();
const config = { trace: 'synth:phased:20000:5:32', bins: 16, hbm_capacity: '10%' };

function playAll(episode) {
  const frames = [];
  while (!episode.done) frames.push(episode.step());
  return frames;
}

test('a stepped episode shows every window and records what `sysgym run --record` writes', () => {
  const episode = sysgym.episode({ env: 'memtier-v0', config, policy: 'lfu-hemem', seed: 3 });
  const { bins, start, windows } = episode.frameContext;
  assert.equal(bins.length, 16);
  assert.equal(episode.env, 'memtier-v0');
  assert.equal(episode.policy, 'lfu-hemem');
  assert.deepEqual(episode.frameLayout, [{ name: 'histogram', dtype: 'uint32', size: 16 }, { name: 'resident', dtype: 'float32', size: 16 }]);
  const frames = playAll(episode);
  assert.equal(frames.length, windows);
  frames.forEach((f, i) => {
    assert.equal(f.info.window, start + i);
    assert.ok(f.frame.histogram instanceof Uint32Array);
    assert.equal(f.frame.histogram.length, 16);
    assert.equal(f.frame.histogram.reduce((a, b) => a + b, 0), f.info.samples);
    assert.ok(f.frame.resident instanceof Float32Array);
    assert.ok(f.frame.resident.every((r) => r >= 0 && r <= 1));
    assert.equal(f.done, i === frames.length - 1);
  });
  // Frames are copies: the first still holds its own window after the episode moved on.
  assert.notDeepEqual(frames[0].frame.histogram, frames.at(-1).frame.histogram);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-episode-')), 'episode.json');
  execFileSync(nativeTool, ['run', 'memtier', '--policy', 'lfu-hemem', '--seed', '3', '--config', JSON.stringify(config),
    '--record', file]);
  const native = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(JSON.stringify(episode.toJSON()), JSON.stringify(native));
  assert.deepEqual(episode.summary(), native.summary);
  assert.deepEqual(frames.map((f) => f.reward), native.steps.map((s) => s.reward));
  assert.throws(() => episode.step(), (e) => e instanceof ApiMisuseError && /episode is over/.test(e.message));
  episode.dispose();
  assert.throws(() => episode.step(), ApiMisuseError);
});

test('a replay steps through a recording and ends with its summary', () => {
  const recorded = sysgym.runEpisode({ env: 'memtier-v0', config, policy: 'memtis', seed: 0, record: true });
  const replay = sysgym.replay(recorded);
  assert.equal(replay.isReplay, true);
  assert.equal(replay.policy, 'memtis');
  const frames = playAll(replay);
  assert.deepEqual(frames.map((f) => f.reward), recorded.steps.map((s) => s.reward));
  assert.deepEqual(replay.summary(), recorded.summary);
  replay.dispose();
});

test('a tampered or malformed recording fails at the step or the header it is wrong in', () => {
  const recorded = sysgym.runEpisode({ env: 'memtier-v0', config, policy: 'lru', seed: 0, record: true });
  recorded.steps[4].reward = 0.5;
  const replay = sysgym.replay(recorded);
  for (let i = 0; i < 4; ++i) replay.step();
  assert.throws(() => replay.step(), (e) => e instanceof ApiMisuseError && /step 4 replays with reward/.test(e.message));
  assert.throws(() => sysgym.replay('{"kind": "something"}'), TraceFormatError);
  assert.throws(() => sysgym.replay('not json'), /recorded episode: not valid JSON/);
  assert.throws(() => sysgym.replay('['.repeat(100000)), /recorded episode: JSON nested deeper than 64 levels/);
  assert.throws(() => sysgym.replay({ ...recorded, schema_version: 9 }), /schema_version 9 is not supported/);
});

test('episodes run on every registered env, and a recording names the env it replays on', () => {
  for (const env of sysgym.envIds()) {
    const episode = sysgym.episode({ env, policy: 'random', seed: 1, config: env.startsWith('memtier') ? config : {} });
    const steps = playAll(episode);
    assert.ok(steps.length > 0, env);
    assert.equal(steps.at(-1).done, true, env);
    const replay = sysgym.replay(episode.toJSON());
    assert.equal(replay.env, episode.env);
    assert.deepEqual(playAll(replay).map((s) => s.reward), steps.map((s) => s.reward), env);
  }
  const recorded = sysgym.runEpisode({ env: 'memtier', config, policy: 'lru', record: true });
  assert.throws(() => sysgym.replay({ ...recorded, env: 'memtire-v0' }), (e) => e instanceof UnknownNameError && /did you mean/.test(e.message));
  const { env: _, ...anonymous } = recorded;
  assert.throws(() => sysgym.replay(anonymous), (e) => e instanceof TraceFormatError && e.message === 'recorded episode: no "env" id to make its env from');
  assert.throws(() => sysgym.episode({ config, policy: 'lru' }), (e) => e instanceof ApiMisuseError && /episode: env must be a string/.test(e.message));
});

test('a bad config or policy fails when the episode is made', () => {
  assert.throws(() => sysgym.episode({ env: 'memtier-v0', config: { ...config, bins: 0 }, policy: 'lru' }), ConfigError);
  assert.throws(() => sysgym.episode({ env: 'memtier-v0', config, policy: 'lruu' }), /did you mean 'lru'/);
});

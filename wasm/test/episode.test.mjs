// Episodes stepped a window at a time (what the playground draws): the same rewards, totals and
// recording as the native tool's whole-episode run, replays that check every reward, and errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { ApiMisuseError, ConfigError, TraceFormatError, load, nativeTool } from './helpers.mjs';

const sysgym = await load();
const config = { trace: 'synth:phased:20000:5:32', bins: 16, hbm_capacity: '10%' };

function playAll(episode) {
  const frames = [];
  while (!episode.done) frames.push(episode.step());
  return frames;
}

test('a stepped episode shows every window and records what `sysgym run --record` writes', () => {
  const episode = sysgym.episode({ config, policy: 'lfu-hemem', seed: 3 });
  assert.equal(episode.bins.length, 16);
  assert.equal(episode.policy, 'lfu-hemem');
  const frames = playAll(episode);
  assert.equal(frames.length, episode.windows);
  frames.forEach((f, i) => {
    assert.equal(f.window, episode.start + i);
    assert.equal(f.histogram.length, 16);
    assert.equal(f.histogram.reduce((a, b) => a + b, 0), f.info.samples);
    assert.ok(f.resident.every((r) => r >= 0 && r <= 1));
    assert.equal(f.done, i === frames.length - 1);
  });
  // Frames are copies: the first still holds its own window after the episode moved on.
  assert.notDeepEqual(frames[0].histogram, frames.at(-1).histogram);
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
  const recorded = sysgym.runEpisode({ config, policy: 'memtis', seed: 0, record: true });
  const replay = sysgym.replay(recorded);
  assert.equal(replay.isReplay, true);
  assert.equal(replay.policy, 'memtis');
  const frames = playAll(replay);
  assert.deepEqual(frames.map((f) => f.reward), recorded.steps.map((s) => s.reward));
  assert.deepEqual(replay.summary(), recorded.summary);
  replay.dispose();
});

test('a tampered or malformed recording fails at the step or the header it is wrong in', () => {
  const recorded = sysgym.runEpisode({ config, policy: 'lru', seed: 0, record: true });
  recorded.steps[4].reward = 0.5;
  const replay = sysgym.replay(recorded);
  for (let i = 0; i < 4; ++i) replay.step();
  assert.throws(() => replay.step(), (e) => e instanceof ApiMisuseError && /step 4 replays with reward/.test(e.message));
  assert.throws(() => sysgym.replay('{"kind": "something"}'), TraceFormatError);
  assert.throws(() => sysgym.replay('not json'), /recorded episode: not valid JSON/);
  assert.throws(() => sysgym.replay('['.repeat(100000)), /recorded episode: JSON nested deeper than 64 levels/);
  assert.throws(() => sysgym.replay({ ...recorded, schema_version: 9 }), /schema_version 9 is not supported/);
});

test('a bad config or policy fails when the episode is made', () => {
  assert.throws(() => sysgym.episode({ config: { ...config, bins: 0 }, policy: 'lru' }), ConfigError);
  assert.throws(() => sysgym.episode({ config, policy: 'lruu' }), /did you mean 'lru'/);
});

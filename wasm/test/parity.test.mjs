// Native and WebAssembly builds give bit-identical episodes: the same recorded JSON (every
// action, reward and info, the summary) and the same hash over every observation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { load, nativeTool } from './helpers.mjs';

const sysgym = await load();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-parity-'));

const cases = [
  { policy: 'random', seed: 1, config: { trace: 'synth:phased:20000:5:32', bins: 16, hbm_capacity: '10%' } },
  { policy: 'random', seed: 2, config: { trace: 'synth:stencil:20000:5:32', bins: 64, action_mode: 'discrete' } },
  { policy: 'lru', seed: 0, config: { trace: 'synth:phased:20000:5:32', hbm_capacity: '10%', window_mode: 'memai', window_len: 20 } },
  { policy: 'static-oracle', seed: 0, config: { trace: 'synth:random:20000:5:32', hbm_capacity: '30%' } },
  { policy: 'lfu-hemem', seed: 0, config: { trace: 'synth:phased:60000:5:32', hbm_capacity: '10%', migration_gbps: 8 } },
  { policy: 'dynamic-oracle', seed: 0, config: { trace: 'synth:stream:20000:5:32', hbm_capacity: '20%' } },
  { policy: 'random', seed: 5, config: { trace: 'synth:phased:20000:5:32', random_start: true, episode_length: 100, history: 4 } },
  { policy: 'random', seed: 3, config: { trace: 'synth:phased:20000:5:32', action_mode: 'swap', reward: 'saving', hbm_capacity: '10%' } },
  // Bins of one or two pages: many more bins fit than capacity / largest bin, chosen by heat.
  { policy: 'random', seed: 4, config: { trace: 'synth:random:5000:1:1', bins: 170, hbm_capacity: '30%' } },
  { policy: 'lru', seed: 0, config: { trace: 'synth:family:20000:7:32', bins: 32, hbm_capacity: '15%' } },
];

for (const c of cases) {
  test(`${c.policy} seed ${c.seed} on ${c.config.trace} is bit-identical natively and in wasm`, () => {
    const file = path.join(tmp, `${c.policy}-${c.seed}.json`);
    execFileSync(nativeTool, ['run', 'memtier', '--policy', c.policy, '--seed', String(c.seed), '--config', JSON.stringify(c.config),
      '--record', file]);
    const native = fs.readFileSync(file, 'utf8').trim();
    const wasm = sysgym.runEpisode({ env: 'memtier-v0', config: c.config, policy: c.policy, seed: c.seed, record: true });
    const parsedNative = JSON.parse(native);
    assert.equal(wasm.observation_hash, parsedNative.observation_hash);
    assert.deepEqual(wasm.summary, parsedNative.summary);
    // The whole recording, as text: every action, reward and info value identical.
    assert.equal(JSON.stringify(wasm), JSON.stringify(parsedNative));
  });
}

// looptune's rewards come from its cost model and its observations from integer and det_math
// arithmetic: the same in both builds, for the searches and for random actions over a benchmark
// set.
const looptuneCases = [
  { policy: 'greedy2', seed: 0, config: { kernel: 'matmul:128x192x64' } },
  { policy: 'random', seed: 3, config: { kernel: 'matmul-test', episode_length: 30 } },
  { policy: 'greedy1', seed: 0, config: { kernel: 'conv3x3:1x16x32x16x16', annotations: 'actions' } },
  // Annealing accepts by det_exp of det_log ratios: its seeded plan is the same in both builds.
  { policy: 'anneal', seed: 5, config: { kernel: 'conv3x3:1x16x32x16x16' } },
  { policy: 'beam4dfs', seed: 0, config: { kernel: 'matmul:96x128x64' } },
];
for (const c of looptuneCases) {
  test(`looptune-v0: ${c.policy} seed ${c.seed} on ${c.config.kernel} is bit-identical natively and in wasm`, () => {
    const file = path.join(tmp, `looptune-${c.policy}-${c.seed}.json`);
    execFileSync(nativeTool, ['run', 'looptune-v0', '--policy', c.policy, '--seed', String(c.seed), '--config', JSON.stringify(c.config),
      '--record', file]);
    const wasm = sysgym.runEpisode({ env: 'looptune-v0', config: c.config, policy: c.policy, seed: c.seed, record: true });
    assert.equal(JSON.stringify(wasm), JSON.stringify(JSON.parse(fs.readFileSync(file, 'utf8'))));
  });
}

// The shipped imitation policy (a network's argmax over the observations) on problems drawn from
// a random-size set: the set is drawn alike in both builds, and so are the network's actions.
test('looptune-v0: the shipped imitation policy on matmul-random-test is bit-identical natively and in wasm', () => {
  const policyFile = path.resolve(import.meta.dirname, '../../data/policies/looptune/looptune-imitation.json');
  const config = { kernel: 'matmul-random-test' };
  const file = path.join(tmp, 'looptune-imitation-7.json');
  execFileSync(nativeTool, ['run', 'looptune-v0', '--policy', 'learned', '--policy-config', policyFile, '--seed', '7',
    '--config', JSON.stringify(config), '--record', file]);
  const policyConfig = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
  const wasm = sysgym.runEpisode({ env: 'looptune-v0', config, policy: 'learned', policyConfig, seed: 7, record: true });
  const native = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.ok(native.summary.best_speedup > 2, `the policy tuned its problem: ${native.summary.best_speedup}x`);
  assert.equal(JSON.stringify(wasm), JSON.stringify(native));
});

// inline-v0 scores decisions with its cost model (doubles, no libm) and observes through det_math:
// the compiled-in kernels program, and a program file read through the host's files.
const lz4 = path.resolve(import.meta.dirname, '../../data/inline/lz4.json');
const inlineCases = [
  { policy: 'random', seed: 3, config: { program: 'kernels', objective: 'mix', reward: 'dense' } },
  { policy: 'clang-O2', seed: 0, config: { program: 'kernels', objective: 'instructions' } },
  { policy: 'size-threshold', seed: 0, config: { program: lz4 } },
];
for (const c of inlineCases) {
  test(`inline-v0: ${c.policy} seed ${c.seed} on ${path.basename(c.config.program)} is bit-identical natively and in wasm`, () => {
    const file = path.join(tmp, `inline-${c.policy}-${c.seed}.json`);
    execFileSync(nativeTool, ['run', 'inline-v0', '--policy', c.policy, '--seed', String(c.seed), '--config', JSON.stringify(c.config),
      '--record', file]);
    const wasm = sysgym.runEpisode({ env: 'inline-v0', config: c.config, policy: c.policy, seed: c.seed, record: true });
    assert.equal(JSON.stringify(wasm), JSON.stringify(JSON.parse(fs.readFileSync(file, 'utf8'))));
  });
}

// A policy trained natively acts identically in wasm: same actions, rewards and observations.
// Per-bin networks too (a shared network over each bin's features, ranks included).
const trained = [
  { agent: 'dqn', name: 'dqn', agentConfig: { hidden: [24, 24] } },
  { agent: 'ppo', name: 'ppo', agentConfig: { hidden: [24, 24] } },
  { agent: 'dqn', name: 'per-bin dqn', agentConfig: { hidden: [16], q_network: 'per_bin' } },
  // initial_logit 1: a flip policy that toggles bins, so the episode moves pages.
  { agent: 'ppo', name: 'per-bin ppo', agentConfig: { hidden: [16], policy_network: 'per_bin', flip_actions: true, initial_logit: 1 } },
];
for (const { agent, name, agentConfig } of trained) {
  test(`a ${name} policy trained natively replays bit-identically in wasm`, () => {
    const policyFile = path.join(tmp, `${name.replace(' ', '-')}.json`);
    const env = { bins: 8, episode_length: 40 };
    execFileSync(nativeTool, ['train', 'memtier', '--agent', agent, '--vary', 'trace=synth:phased:8000:1,synth:random:8000:2',
      '--steps', '3000', '--config', JSON.stringify(env), '--agent-config', JSON.stringify(agentConfig),
      '-o', policyFile]);
    const policyConfig = JSON.parse(fs.readFileSync(policyFile, 'utf8'));
    const config = { trace: 'synth:stencil:8000:3', bins: 8, action_mode: agent === 'dqn' ? 'discrete' : 'bins' };
    const file = path.join(tmp, `${name.replace(' ', '-')}-episode.json`);
    execFileSync(nativeTool, ['run', 'memtier', '--policy', 'learned', '--policy-config', policyFile, '--config',
      JSON.stringify(config), '--record', file]);
    const native = fs.readFileSync(file, 'utf8').trim();
    const wasm = sysgym.runEpisode({ env: 'memtier-v0', config, policy: 'learned', policyConfig, record: true });
    assert.equal(wasm.observation_hash, JSON.parse(native).observation_hash);
    assert.equal(JSON.stringify(wasm), JSON.stringify(JSON.parse(native)));
    // Stepped, the policy runs on the env settings its file fixes without being told them.
    const stepped = sysgym.episode({ env: 'memtier-v0', config: { trace: config.trace }, policy: 'learned', policyConfig });
    while (!stepped.done) stepped.step();
    assert.equal(JSON.stringify(stepped.toJSON()), JSON.stringify(JSON.parse(native)));
    stepped.dispose();
    // A trained policy does not sit still: it moves pages at some point of the episode.
    assert.ok(wasm.summary.promoted_bytes > 0 || wasm.summary.demoted_bytes > 0 || agent === 'dqn');
  });
}

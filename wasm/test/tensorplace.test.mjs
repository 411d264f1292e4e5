// sysgym.tensorplace under Node: the zoo and graphs as natively, and AutoTM's ILP solved by HiGHS
// (WebAssembly) to the optimum CBC finds natively.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

import { ApiMisuseError, UnknownNameError, load, nativeTool } from './helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sysgym = await load();
// The web front end's copy of the npm package highs (./sysgym.sh setup installs it).
sysgym.tensorplace.useHighs((await import(path.join(root, 'web/node_modules/highs/build/highs.mjs'))).default);

function native(args) {
  const r = spawnSync(nativeTool, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

test('the zoo and a graph summary are the native ones', () => {
  assert.deepEqual(sysgym.tensorplace.zoo(8), JSON.parse(native(['tensorplace', 'zoo', '--batch', '8', '--json'])));
  assert.equal(sysgym.tensorplace.zoo(8, { json: false }), native(['tensorplace', 'zoo', '--batch', '8']));
  const { summary, graph } = sysgym.tensorplace.graph({ model: 'inception_v4', batch: 2 }, { withGraph: true });
  assert.deepEqual(summary, JSON.parse(native(['tensorplace', 'graph', '--model', 'inception_v4', '--batch', '2', '--json'])));
  // The graph JSON reads back as the same iteration.
  assert.deepEqual(sysgym.tensorplace.graph({ graph }).summary, summary);
});

test('the static ILP solved by HiGHS meets the native optimum', async () => {
  const request = { model: 'resnet50', batch: 2, fast_memory: '1:1', gap: 1e-5 };
  const wasm = await sysgym.tensorplace.ilp(request);
  const cbc = JSON.parse(native(['tensorplace', 'ilp', '--model', 'resnet50', '--batch', '2', '--fast-memory', '1:1', '--gap', '1e-5', '--json']));
  assert.equal(wasm.status, 'optimal');
  assert.ok(Math.abs(wasm.iteration_ms - cbc.iteration_ms) <= 1e-4 * cbc.iteration_ms, `${wasm.iteration_ms} vs ${cbc.iteration_ms}`);
  assert.ok(Math.abs(wasm.iteration_ms - wasm.objective_ms) <= 1e-6 * wasm.objective_ms);
  // Everything but the solver's own figures is the same simulation, bit for bit.
  for (const key of ['all_fast_ms', 'all_slow_ms', 'first_touch_ms', 'binaries', 'rows', 'fast_limit_bytes']) assert.equal(wasm[key], cbc[key], key);
  const sweep = await sysgym.tensorplace.sweep({ model: 'vgg19', batch: 2, ratios: ['0', '4:1'] }, { json: false });
  assert.match(sweep, /^vgg19 at batch 2 on optane/);
});

test('the sync and async ILPs solved by HiGHS meet the native optimum within the gap', async () => {
  const request = { model: 'vgg19', batch: 16, fast_memory: '40%', gap: 0.005 };
  for (const variant of ['sync', 'async']) {
    const wasm = await sysgym.tensorplace.ilp({ ...request, variant });
    const cbc = JSON.parse(native(['tensorplace', 'ilp', '--model', 'vgg19', '--batch', '16', '--fast-memory', '40%', '--gap', '0.005', '--variant', variant, '--json']));
    assert.equal(wasm.variant, variant);
    // Each solver stops within 0.5 % of its optimum: the two plans are within 1 % of each other.
    assert.ok(Math.abs(wasm.iteration_ms - cbc.iteration_ms) <= 0.01 * cbc.iteration_ms, `${variant}: ${wasm.iteration_ms} vs ${cbc.iteration_ms}`);
    assert.ok(Math.abs(wasm.iteration_ms - wasm.objective_ms) <= 1e-6 * wasm.objective_ms, `${variant}: the objective is the replayed time`);
    assert.equal(wasm.binaries, cbc.binaries);
    assert.equal(wasm.rows, cbc.rows);
    assert.ok(wasm.iteration_ms <= wasm.steps.at(-2).iteration_ms * (1 + 1e-9), `${variant} no worse than the variant before`);
  }
});

test('the ILP\'s plan runs as the plan policy and takes the plan\'s time', async () => {
  const request = { model: 'vgg19', batch: 8, fast_memory: '40%', gap: 0.02, time_limit: 5, variant: 'async', with_plan: true };
  const report = await sysgym.tensorplace.ilp(request);
  assert.equal(report.plan.format, 'sysgym-tensorplace-plan');
  const config = { model: 'vgg19', batch: 8, fast_memory: report.fast_limit_bytes };
  const episode = sysgym.runEpisode({ env: 'tensorplace-v0', config, policy: 'plan', policyConfig: report.plan, seed: 0 });
  assert.ok(Math.abs(episode.summary.iteration_ms - report.iteration_ms) <= 1e-9 * report.iteration_ms,
    `${episode.summary.iteration_ms} vs ${report.iteration_ms}`);
  assert.throws(() => sysgym.runEpisode({ env: 'tensorplace-v0', config: { model: 'vgg19', batch: 8 }, policy: 'plan', policyConfig: report.plan, seed: 0 }),
    /the plan is for .* of fast memory/);
});

test('time_limit covers the whole call: no solve is given more than what is left, and one stopped keeps the plan that started it', async () => {
  const given = [];
  const stopped = (lp, options) => { given.push(options.time_limit); return { status: 'time limit', has_solution: false }; };
  const ilp = await sysgym.tensorplace.ilp({ model: 'vgg416', batch: 4, variant: 'async', time_limit: 0.01 }, { solver: stopped });
  assert.equal(ilp.status, 'time limit');
  assert.equal(ilp.iteration_ms, Math.min(ilp.greedy_ms, ilp.first_touch_ms));
  const sweep = await sysgym.tensorplace.sweep(
    { model: 'vgg416', batch: 4, ratios: ['1:1'], optimizers: ['greedy', 'static'], time_limit: 0.01, solve_time_limit: 600 },
    { solver: stopped });
  const cells = sweep.rows[0].optimizers;
  assert.equal(cells.static.status, 'time limit');
  assert.equal(cells.static.iteration_ms, cells.greedy.iteration_ms);
  assert.ok(given.every((seconds) => seconds <= 0.01), `time limits given: ${given}`);
});

test('bad requests and failing solvers are named errors', async () => {
  assert.throws(() => sysgym.tensorplace.graph({ model: 'resnet51' }), UnknownNameError);
  await assert.rejects(sysgym.tensorplace.ilp({ model: 'vgg19', batch: 2 }, { solver: 'cbc' }), ApiMisuseError);
  await assert.rejects(sysgym.tensorplace.ilp({ model: 'vgg19', batch: 2 }, { solver: () => { throw new Error('no licence'); } }),
    /the ILP solver failed: no licence/);
  await assert.rejects(sysgym.tensorplace.ilp({ model: 'vgg19', fast_memory: '120%' }), /fast_memory/);
  assert.throws(() => sysgym.tensorplace.zoo(0), ApiMisuseError);
  await assert.rejects(sysgym.tensorplace.ilp({ model: 'vgg19', batch: 2, variant: 'eager' }), /variant/);
  await assert.rejects(sysgym.tensorplace.ilp({ model: 'vgg19', batch: 2, fast_memroy: '50%' }), /fast_memroy/);
  await assert.rejects(sysgym.tensorplace.sweep({ model: 'vgg19', batch: 2, ratios: '1:1' }), /ratios/);
  assert.throws(() => sysgym.tensorplace.graph({ model: 'vgg19', batch: 0 }), /batch/);
});

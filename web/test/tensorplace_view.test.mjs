// tensorplace's view in the playground and in a <sysgym-player>: an iteration run kernel by
// kernel shows the native tool's figures, fast memory in use never above the limit it draws, and
// every kernel's time; AutoTM's ILP solved in the tab (HiGHS) beside it, and the sweep.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { native, screenshot, sharedPlayground, waitForEnd } from './browser.mjs';

const shared = sharedPlayground({ hash: '#env=tensorplace-v0&policy=builtin%3Afirst-touch&model=vgg19&batch=2&fast_memory=30%25' });
const expected = native(['run', 'tensorplace-v0', 'model=vgg19', 'batch=2', 'fast_memory=30%', '--policy', 'first-touch', '--json']);

test('a first-touch iteration shows the native figures and keeps under the limit it draws', async () => {
  const { page } = shared;
  await page.selectOption('#speed', 'Infinity');
  await page.click('#run');
  await waitForEnd(page);
  const value = async (id) => Number(await page.locator(`#${id}`).getAttribute('data-value'));
  assert.equal(await value('slowdown'), expected.slowdown);
  assert.equal(await value('gap-closed'), expected.gap_closed);
  const iteration = await value('iteration-ms');
  assert.ok(Math.abs(iteration - expected.iteration_ms) <= 1e-9 * expected.iteration_ms, `${iteration} vs ${expected.iteration_ms}`);
  assert.equal(await value('move-ms'), expected.move_ms);
  const charts = await page.evaluate(() => Object.fromEntries(['capacity-chart', 'kernel-time-chart', 'iteration-chart'].map((id) => {
    const option = document.querySelector(`#${id}`).chartInstance.getOption();
    return [id, option.series.map((s) => ({ name: s.name, data: s.data, marks: (s.markLine?.data ?? []).map((m) => m.yAxis) }))];
  })));
  const kernels = expected.facts.kernels;
  const [used] = charts['capacity-chart'];
  assert.equal(used.data.length, kernels);
  const limit = expected.facts.fast_limit_bytes / 2 ** 20;
  assert.deepEqual(used.marks, [limit]);
  assert.ok(used.data.every(([, mib]) => mib <= limit + 1e-9), 'fast memory in use stays under the limit');
  assert.ok(used.data.some(([, mib]) => mib > 0), 'first-touch keeps some tensors fast');
  const [kernel, moves] = charts['kernel-time-chart'];
  assert.equal(kernel.data.length, kernels);
  const sum = (series) => series.data.reduce((a, [, v]) => a + v, 0);
  assert.ok(Math.abs(sum(kernel) - expected.kernel_ms) <= 1e-9 * expected.kernel_ms);
  assert.ok(Math.abs(sum(moves) - expected.move_ms) <= 1e-9 * expected.iteration_ms + 1e-12);
  assert.deepEqual(charts['iteration-chart'][0].marks, [expected.all_fast_ms, expected.all_slow_ms]);
  await screenshot(shared.page, 'tensorplace-view');
});

// HiGHS here, CBC natively: both stop within 1 % of their bound, so their times agree within it.
const ILP_GAP = 0.01;
const within = (a, b, gap) => Math.abs(a - b) <= gap * Math.max(a, b);

test('the ILP solved in the tab plays its plan beside the episode, under the limit and faster than first-touch', async () => {
  const { page } = shared;
  const nativeIlp = native(['tensorplace', 'ilp', '--model', 'vgg19', '--batch', '2', '--fast-memory', '30%', '--variant', 'static', '--gap', String(ILP_GAP), '--json']);
  await page.selectOption('#ilp-variant', 'static');
  await page.click('#ilp-solve');
  await page.waitForFunction(() => ['solved', 'failed'].includes(document.querySelector('#ilp-panel-title').parentElement.dataset.state), null, { timeout: 120000 });
  assert.match(await page.locator('#ilp-status').textContent(), /static ILP: optimal/);
  const value = async (id) => Number(await page.locator(`#${id}`).getAttribute('data-value'));
  const ilpMs = await value('ilp-ms');
  assert.ok(within(ilpMs, nativeIlp.iteration_ms, ILP_GAP), `HiGHS ${ilpMs} ms vs CBC ${nativeIlp.iteration_ms} ms`);
  assert.ok(ilpMs < expected.iteration_ms, `the ILP ${ilpMs} ms beats first-touch ${expected.iteration_ms} ms`);
  assert.ok(await value('ilp-gap') <= ILP_GAP);
  const series = await page.evaluate(() => document.querySelector('#ilp-capacity-chart').chartInstance.getOption().series.map((s) => ({ name: s.name, data: s.data })));
  assert.deepEqual(series.map((s) => s.name), ['first-touch', 'ILP (static)']);
  const limit = expected.facts.fast_limit_bytes / 2 ** 20;
  assert.equal(series[1].data.length, expected.facts.kernels);
  assert.ok(series[1].data.every(([, mib]) => mib <= limit + 1e-9), 'the plan stays under the limit');
  await screenshot(page, 'tensorplace-ilp');
});

test('the sweep draws every optimizer at every ratio, as the native sweep computes them', async () => {
  const { page } = shared;
  const ratios = ['0', '1:8', '1:4', '1:2', '1:1', '2:1', '4:1'];
  const nativeSweep = native(['tensorplace', 'sweep', '--model', 'vgg19', '--batch', '2', '--ratios', ratios.join(','), '--gap', String(ILP_GAP), '--json']);
  await page.click('#sweep-start');
  await page.waitForFunction(() => ['swept', 'failed'].includes(document.querySelector('#sweep-panel-title').parentElement.dataset.state), null, { timeout: 180000 });
  assert.match(await page.locator('#sweep-status').textContent(), /7 ratios x 6 optimizers/);
  const series = await page.evaluate(() => document.querySelector('#sweep-chart').chartInstance.getOption().series.map((s) => ({ name: s.name, data: s.data })));
  assert.deepEqual(series.map((s) => s.name), nativeSweep.optimizers);
  for (const s of series) {
    assert.deepEqual(s.data.map(([ratio]) => ratio), ratios);
    s.data.forEach(([, slowdown], i) => {
      const expectedSlowdown = nativeSweep.rows[i].optimizers[s.name].slowdown;
      // The simulated baselines are bit-identical; the ILPs agree within their gap.
      if (['static', 'sync'].includes(s.name)) assert.ok(within(slowdown, expectedSlowdown, ILP_GAP), `${s.name} at ${ratios[i]}: ${slowdown} vs ${expectedSlowdown}`);
      else assert.equal(slowdown, expectedSlowdown, `${s.name} at ${ratios[i]}`);
    });
  }
  await screenshot(page, 'tensorplace-sweep');
});

test('the shipped learned policy is offered on tensorplace-v0 and runs as the native tool runs it', async () => {
  const { page } = shared;
  const value = await page.locator('#policy option', { hasText: 'PPO per operand (shipped)' }).getAttribute('value');
  await page.selectOption('#policy', value);
  await page.click('#run');
  await waitForEnd(page);
  const learned = native(['run', 'tensorplace-v0', 'model=vgg19', 'batch=2', 'fast_memory=30%', '--policy', 'learned',
    '--policy-config', 'data/policies/tensorplace/ppo-per-operand.json', '--json']);
  assert.equal(Number(await page.locator('#gap-closed').getAttribute('data-value')), learned.gap_closed);
  assert.equal(Number(await page.locator('#slowdown').getAttribute('data-value')), learned.slowdown);
});

test('a <sysgym-player env="tensorplace-v0"> plays an iteration', async () => {
  const page = await shared.browser.page(shared.problems);
  await page.goto(`${shared.browser.url}docs.html`);
  await page.evaluate(() => {
    const player = document.createElement('sysgym-player');
    Object.entries({ id: 'tp', env: 'tensorplace-v0', policy: 'first-touch', config: '{"model": "vgg19", "batch": 2, "fast_memory": "30%"}', speed: '1000' })
      .forEach(([k, v]) => player.setAttribute(k, v));
    document.querySelector('main').prepend(player);
  });
  await page.waitForFunction(() => document.querySelector('#tp').dataset.state === 'ended', null, { timeout: 60000 });
  const shown = await page.locator('#tp').evaluate((el) => ({
    iteration: Number(el.shadowRoot.querySelector('.iteration').dataset.value),
    points: el.shadowRoot.querySelector('.chart').chartInstance.getOption().series[0].data.length,
  }));
  assert.ok(Math.abs(shown.iteration - expected.iteration_ms) <= 1e-9 * expected.iteration_ms);
  assert.equal(shown.points, expected.facts.kernels);
  await page.close();
});

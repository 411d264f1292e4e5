// tensorplace's view in the playground and in a <sysgym-player>: an iteration run kernel by
// kernel shows the native tool's figures, fast memory in use never above the limit it draws, and
// every kernel's time.
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

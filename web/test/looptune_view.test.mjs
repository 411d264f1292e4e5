// looptune's view in the playground and in a <sysgym-player>: an annealed episode shows the
// native tool's GFLOPS action by action and ends on the nest the native tool ends on, written as
// code; the shown nest is measured in the tab's worker; the shipped DQN runs as natively.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { native, screenshot, sharedPlayground, waitForEnd } from './browser.mjs';

const shared = sharedPlayground({ hash: '#env=looptune-v0&policy=builtin%3Aanneal&kernel=matmul%3A64x96x128' });
const expected = native(['run', 'looptune-v0', 'kernel=matmul:64x96x128', '--policy', 'anneal', '--json']);
const tuned = native(['looptune', 'tune', '--kernel', 'matmul:64x96x128', '--search', 'anneal', '--json']);

test('an annealed nest shows the native GFLOPS and ends on the native nest, as code', async () => {
  const { page } = shared;
  await page.selectOption('#speed', 'Infinity');
  await page.click('#run');
  await waitForEnd(page);
  assert.equal(Number(await page.locator('#gflops').getAttribute('data-value')), expected.final_gflops);
  assert.equal(Number(await page.locator('#speedup').getAttribute('data-value')), expected.final_gflops / expected.start_gflops);
  const code = await page.locator('#nest-code').textContent();
  const lines = code.split('\n').map((l) => l.replace('▶', '').trim());
  const loops = tuned.after.loops.map((l) => `for ${l.var} in ${l.size}:${l.tail ? `  // + tail ${l.tail}` : ''}`);
  assert.deepEqual(lines.slice(0, -1), loops);
  assert.equal(lines.at(-1), 'C += A * B');
  const series = await page.evaluate(() => document.querySelector('#gflops-chart').chartInstance.getOption().series[0].data);
  assert.equal(series.length, expected.steps);
  assert.equal(series.at(-1)[1], expected.final_gflops);
  await screenshot(page, 'looptune-annealed');
});

test('every step\'s nest is measured in the tab, with the tab\'s peak', async () => {
  const { page } = shared;
  await page.click('#measure');
  await page.waitForFunction(() => document.querySelector('#measured-speedup').dataset.value !== undefined, null, { timeout: 120000 });
  const value = async (id) => Number(await page.locator(`#${id}`).getAttribute('data-value'));
  assert.ok(await value('measured-before') > 0);
  assert.ok(await value('measured-after') > await value('measured-before'), 'the annealed nest runs faster than the untuned one');
  const peak = await value('tab-peak');
  assert.ok(peak > 0 && peak < 1000, `this tab's peak: ${peak} GFLOPS`);
  assert.equal(await page.locator('#measured-steps tr').count(), expected.steps);
});

test('a person tunes by hand: the legal actions as buttons, replayed as the sequence policy', async () => {
  const { page } = shared;
  await page.waitForFunction(() => document.querySelector('section[aria-labelledby="hand-title"]').dataset.state === 'ready', null, { timeout: 60000 });
  assert.equal(await page.locator('#hand-actions button[data-action="0"]').isDisabled(), true, 'up is illegal on the outermost loop');
  for (const action of [1, 3, 6]) {
    const count = await page.locator('#hand-count').textContent();
    await page.click(`#hand-actions button[data-action="${action}"]`);
    await page.waitForFunction((before) => {
      const section = document.querySelector('section[aria-labelledby="hand-title"]');
      return section.dataset.state === 'ready' && document.querySelector('#hand-count').textContent !== before;
    }, count, { timeout: 60000 });
  }
  const byHand = native(['run', 'looptune-v0', 'kernel=matmul:64x96x128', 'episode_length=3', '--policy', 'sequence',
    '--policy-config', '{"actions": [1, 3, 6]}', '--json']);
  assert.equal(Number(await page.locator('#hand-gflops').getAttribute('data-value')), byHand.final_gflops);
  await page.click('#hand-undo');
  await page.waitForFunction(() => document.querySelector('#hand-count').textContent === '2', null, { timeout: 60000 });
  await screenshot(page, 'looptune-by-hand');
});

test('the shipped looptune DQN runs in the playground as the native tool runs it', async () => {
  const { page } = shared;
  const value = await page.locator('#policy option', { hasText: 'DQN (LoopTune matmuls and convolutions) (shipped)' }).getAttribute('value');
  await page.selectOption('#policy', value);
  await page.click('#run');
  await waitForEnd(page);
  const learned = native(['run', 'looptune-v0', 'kernel=matmul:64x96x128', '--policy', 'learned',
    '--policy-config', 'data/policies/looptune/looptune-dqn.json', '--json']);
  assert.equal(Number(await page.locator('#gflops').getAttribute('data-value')), learned.final_gflops);
});

test('a <sysgym-player env="looptune-v0"> plays a tuning', async () => {
  const page = await shared.browser.page(shared.problems);
  await page.goto(`${shared.browser.url}docs.html`);
  await page.evaluate(() => {
    const player = document.createElement('sysgym-player');
    Object.entries({ id: 'lt', env: 'looptune-v0', config: '{"kernel": "matmul:64x96x128"}', speed: '1000' })
      .forEach(([k, v]) => player.setAttribute(k, v));
    document.querySelector('main').prepend(player);
  });
  await page.waitForFunction(() => document.querySelector('#lt').dataset.state === 'ended', null, { timeout: 60000 });
  assert.ok(await page.locator('#lt canvas').count() > 0);
  await page.close();
});

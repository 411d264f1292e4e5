// A family without a line in web/: the site built over the test package (build/web-test, the npm
// package plus tests/env's linewalk family) lists linewalk beside memtier, shows it through the
// generic view with the figures the package itself computes, compares its policies by the env's
// ranking, and plays it in a <sysgym-player>.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';

import { root, screenshot, sharedPlayground, testSite, waitForEnd } from './browser.mjs';

const { load } = await import(path.join(root, 'build/wasm/test-package/index.mjs'));
const sysgym = await load();
const shared = sharedPlayground({ site: testSite, hash: '#env=linewalk-v0&policy=builtin%3Awalk-right&length=7&slip_percent=30&seed=5' });

test('the playground lists every registered env and runs linewalk in the generic view', async () => {
  const { page } = shared;
  assert.deepEqual(await page.locator('#env option').evaluateAll((os) => os.map((o) => o.value)), sysgym.envIds());
  assert.equal(await page.inputValue('#env'), 'linewalk-v0');
  assert.deepEqual(await page.locator('#env-fields .field input').evaluateAll((els) => els.map((e) => e.name)),
    ['length', 'max_steps', 'slip_percent']);
  await page.selectOption('#speed', 'Infinity');
  await page.click('#run');
  await waitForEnd(page);
  const expected = sysgym.runEpisode({ env: 'linewalk-v0', config: { length: 7, slip_percent: 30 }, policy: 'walk-right', seed: 5 });
  assert.equal(Number(await page.locator('#return').getAttribute('data-value')), expected.return);
  assert.equal(Number(await page.locator('#metric').getAttribute('data-value')), expected.summary.position);
  assert.equal(await page.locator('#window-counter').getAttribute('data-shown'), String(expected.summary.steps));
  await screenshot(page, 'families-linewalk');
});

test('linewalk\'s policies compare in its ranking: position, higher is better', async () => {
  const { page } = shared;
  await page.click('#compare');
  await page.waitForFunction(() => document.querySelector('#comparison').getAttribute('aria-busy') === 'false' &&
    document.querySelectorAll('#comparison tbody tr').length === 2, null, { timeout: 60000 });
  assert.deepEqual(await page.locator('#comparison thead th').allTextContents(), ['Policy', 'position', 'steps']);
  const ranks = await page.locator('#comparison tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.dataset.rank)));
  assert.deepEqual(ranks, [...ranks].sort((a, b) => b - a));
  for (const policy of ['random', 'walk-right']) {
    const expected = sysgym.runEpisode({ env: 'linewalk-v0', config: { length: 7, slip_percent: 30 }, policy, seed: 5 });
    const cell = page.locator(`#comparison tbody tr[data-policy="${policy}"] td[data-key="position"]`);
    assert.equal(Number(await cell.getAttribute('data-value')), expected.summary.position, policy);
  }
});

test('a family without shipped profiles is profiled on the form\'s config, by the agents its actions suit', async () => {
  const { page } = shared;
  const runs = await page.locator('#profile-run option').allTextContents();
  // linewalk has three actions: PPO (MultiBinary or Discrete(2)) is not offered.
  assert.deepEqual(runs, ['32x32', '256x256'].map((n) => `DQN, ${n} network, 2,000 steps, on the form's config`));
  await page.selectOption('#profile-run', '0'); // DQN, 32x32
  await page.click('#profile-start');
  await page.waitForFunction(() => document.body.dataset.profiled === 'linewalk-v0' || document.querySelector('#errors p'), null, { timeout: 120000 });
  assert.deepEqual(await page.locator('#errors p').allTextContents(), []);
  assert.equal(await page.locator('#profile-start').isDisabled(), false, 'the panel can run again');
  const runsDrawn = await page.evaluate(() => document.querySelector('#profile-bars').chartInstance.getOption().yAxis[0].data);
  assert.equal(runsDrawn.length, 1);
  assert.match(runsDrawn[0], /^this browser/);
  const table = await page.locator('#profile-table').textContent();
  for (const op of ['learner.update', 'replay.sample', 'env.step', 'js-wasm.crossing']) assert.match(table, new RegExp(op.replace('.', '\\.')));
});

test('a <sysgym-player env="linewalk-v0"> plays through the generic view', async () => {
  const page = await shared.browser.page(shared.problems);
  await page.goto(`${shared.browser.url}docs.html`);
  await page.evaluate(() => {
    const player = document.createElement('sysgym-player');
    Object.entries({ id: 'walk', env: 'linewalk-v0', policy: 'walk-right', config: '{"length": 9}', speed: '1000' })
      .forEach(([k, v]) => player.setAttribute(k, v));
    document.querySelector('main').prepend(player);
  });
  await page.waitForFunction(() => document.querySelector('#walk').dataset.state === 'ended', null, { timeout: 60000 });
  const shown = await page.locator('#walk').evaluate((el) => ({
    total: Number(el.shadowRoot.querySelector('.return').dataset.value),
    step: el.shadowRoot.querySelector('.window').textContent,
    title: el.shadowRoot.querySelector('.title').textContent,
  }));
  const expected = sysgym.runEpisode({ env: 'linewalk-v0', config: { length: 9 }, policy: 'walk-right', seed: 0 });
  assert.equal(shown.total, expected.return);
  assert.equal(shown.step, 'step 8 / 8');
  assert.equal(shown.title, 'walk-right on linewalk-v0');
  await page.close();
});

// What a first-time visitor meets: a Run button that waits for the simulator and says what is
// loading, a first screen where the default policy visibly closes part of the gap (and says what
// "gap closed" means), and shared links that reproduce what the sender saw, ready to play.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { formatPercent } from '../src/shell/format.js';
import { figure, native, openPlayground, screenshot, sharedPlayground, waitForEnd } from './browser.mjs';

const shared = sharedPlayground();
const pair = (name) => `data/real/${name}.ddr.bin,data/real/${name}.hbm.bin`;

test('Run waits for the simulator: disabled, with the status saying what loads, until the page is ready', async () => {
  const page = await shared.browser.page(shared.problems);
  // Hold the catalogue back, as a slow network would.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/catalogue.json', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${shared.browser.url}index.html`);
  await page.waitForSelector('#run');
  assert.equal(await page.locator('#run').isDisabled(), true, 'Run is disabled while loading');
  assert.equal(await page.locator('#compare').isDisabled(), true, 'Compare is disabled while loading');
  assert.match(await page.locator('#status').textContent(), /^Loading the simulator/);
  release();
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  assert.equal(await page.locator('#run').isDisabled(), false);
  assert.equal(await page.locator('#compare').isDisabled(), false);
  assert.doesNotMatch(await page.locator('#status').textContent(), /Loading/);
  await page.close();
});

test('the first screen starts on data and a policy where the gap visibly closes, and explains gap closed', async () => {
  const page = await shared.browser.page(shared.problems);
  await openPlayground(shared.browser, page);
  assert.equal(await page.inputValue('#trace'), 'hpcc-randomaccess');
  assert.equal(await page.inputValue('#policy'), 'builtin:lfu-hemem');
  assert.equal(await page.locator('#gap-meter').isHidden(), true, 'no gap meter before a run');
  assert.match(await page.locator('#gap-about').textContent(), /below 0 it is slower than leaving everything in DDR/);
  // Empty charts say when they will draw, and say nothing once drawn.
  const notes = () => page.$$eval('#views .chart, #comparison-bars, #profile-timeline', (els) => els.map((e) => e.dataset.empty ?? ''));
  const before = await notes();
  assert.ok(before.length >= 7 && before.every((n) => /Drawn when an episode runs|compared|Profile the run here/.test(n)), before.join(' | '));
  await page.selectOption('#speed', 'Infinity');
  await page.click('#run');
  await waitForEnd(page);
  const after = await notes();
  assert.deepEqual(after.slice(0, -2), Array(after.length - 2).fill(''), 'every episode chart drew');
  assert.match(after.at(-1), /Profile the run here/, 'the timeline waits for a profile');
  assert.equal(await page.locator('#gap-meter').isVisible(), true);
  const expected = native(['run', 'memtier', '--policy', 'lfu-hemem', '--config',
    JSON.stringify({ trace: pair('hpcc-randomaccess'), hbm_capacity: '10%' }), '--json']);
  const gap = await figure(page, 'gap-closed');
  assert.equal(gap.value, expected.gap_closed);
  assert.ok(gap.value > 0.25, `the default closes a visible part of the gap (${formatPercent(gap.value)})`);
  await screenshot(page, 'first-screen-after-run');
  // The README's picture (docs/images/playground.png; `./sysgym.sh catalogue` copies it there):
  // what a visitor sees on a laptop's screen after the first run.
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshot(page, 'readme-playground', { fullPage: false });
  // Captions name the trace as a visitor knows it, never by the files it was registered under.
  await page.click('#compare');
  await page.waitForFunction(() => document.querySelector('#comparison').getAttribute('aria-busy') === 'false'
    && document.querySelectorAll('#comparison tbody tr').length > 3, null, { timeout: 120000 });
  for (const selector of ['#status', '#comparison caption', '#trace-about', '#policy-about']) {
    const text = await page.locator(selector).textContent();
    assert.doesNotMatch(text, /data\/real|\.ddr\.bin|\.hbm\.bin/, `${selector}: ${text}`);
  }
  assert.match(await page.locator('#comparison caption').textContent(), /on hpcc-randomaccess, HBM 10%/);
  await page.close();
});

test('a shared link runs the sender\'s episode and stops at the window the sender was on', async () => {
  const sender = shared.page;
  await sender.selectOption('#trace', 'lammps');
  await sender.selectOption('#policy', 'builtin:memtis');
  await sender.fill('#hbm_capacity', '5%');
  await sender.selectOption('#speed', 'Infinity');
  await sender.click('#run');
  await waitForEnd(sender);
  await sender.fill('#jump-to', '300');
  await sender.dispatchEvent('#jump-to', 'change');
  const seen = {
    shown: await sender.locator('#window-counter').getAttribute('data-shown'),
    total: await figure(sender, 'total-ms'),
    gap: await figure(sender, 'gap-closed'),
  };
  await sender.click('#share');
  const url = sender.url();
  assert.match(url, /&at=\d+/);

  const receiver = await shared.browser.page(shared.problems);
  await receiver.goto(url);
  await receiver.waitForFunction(() => document.body.dataset.complete === 'false' || document.querySelector('#errors p'));
  await receiver.waitForFunction((shown) => document.querySelector('#window-counter').dataset.shown === shown
    || document.querySelector('#errors p'), seen.shown, { timeout: 120000 });
  assert.deepEqual(await receiver.locator('#errors p').allTextContents(), []);
  assert.equal(await receiver.inputValue('#trace'), 'lammps');
  assert.equal(await receiver.inputValue('#policy'), 'builtin:memtis');
  assert.deepEqual(await figure(receiver, 'total-ms'), seen.total);
  assert.deepEqual(await figure(receiver, 'gap-closed'), seen.gap);
  assert.equal(await receiver.locator('#play').textContent(), 'Play', 'paused, ready to play');
  assert.equal(await receiver.locator('#play').isDisabled(), false);
  await screenshot(receiver, 'shared-link-opened');
  await receiver.close();
});

// <sysgym-player> on the docs page and in other pages: it renders, plays to the end by itself with
// the native tool's totals, pauses, replays a recording, acts with a policy file and shows errors
// inside itself. Also: the playground's layout on a narrow screen.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { native, openPlayground, root, runToEnd, screenshot, startBrowser } from './browser.mjs';

const xz = 'data/real/xz.ddr.bin,data/real/xz.hbm.bin';
let browser;
const problems = [];

before(async () => {
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  assert.deepEqual(problems, [], 'the pages logged no errors');
});

// A player's state and shown figures, read through its shadow root.
function readPlayer(page, selector) {
  return page.locator(selector).evaluate((el) => ({
    state: el.dataset.state,
    total: Number(el.shadowRoot.querySelector('.total').dataset.value),
    ddr: Number(el.shadowRoot.querySelector('.ddr').dataset.value),
    hbm: Number(el.shadowRoot.querySelector('.hbm').dataset.value),
    legend: el.shadowRoot.querySelector('.legend').textContent,
    visible: Object.fromEntries(['.chart', '.legend', '.bar', 'button.toggle'].map((s) => [s, el.shadowRoot.querySelector(s).checkVisibility()])),
    gap: Number(el.shadowRoot.querySelector('.gap').dataset.value),
    window: el.shadowRoot.querySelector('.window').textContent,
    title: el.shadowRoot.querySelector('.title').textContent,
    error: el.shadowRoot.querySelector('.error').textContent,
    canvas: el.shadowRoot.querySelector('canvas') !== null,
  }));
}

function waitForState(page, selector, states) {
  return page.waitForFunction(([s, wanted]) => wanted.includes(document.querySelector(s)?.dataset.state), [selector, states],
    { timeout: 120000 });
}

test('the docs page embeds two players that render, play to the end and match the native run', async () => {
  const page = await browser.page(problems);
  await page.goto(`${browser.url}docs.html`);
  await waitForState(page, '#hemem', ['playing', 'ended']);
  const early = await readPlayer(page, '#hemem');
  assert.ok(early.canvas, 'the heatmap is drawn on a canvas');
  assert.equal(early.title, 'lfu-hemem on xz');
  assert.match(early.legend, /green: data in HBM/);
  const boxes = await Promise.all(['#hemem', '#oracle'].map((id) => page.locator(id).boundingBox()));
  assert.equal(boxes[0].y, boxes[1].y, 'the two players stand side by side');
  assert.ok(boxes[1].x >= boxes[0].x + boxes[0].width, 'the oracle\'s player is right of the first');
  await screenshot(page, 'docs-players-playing');
  for (const [id, policy] of [['#hemem', 'lfu-hemem'], ['#oracle', 'static-oracle']]) {
    await waitForState(page, id, ['ended']);
    const shown = await readPlayer(page, id);
    const expected = native(['run', 'memtier', '--policy', policy, '--config', JSON.stringify({ trace: xz, hbm_capacity: '10%' }), '--json']);
    assert.equal(shown.total, expected.total_ms, policy);
    assert.equal(shown.gap, expected.gap_closed, policy);
    assert.equal(shown.ddr, expected.ddr_ms, `${policy}: the all-DDR bound`);
    assert.equal(shown.hbm, expected.hbm_ms, `${policy}: the all-HBM bound`);
    assert.equal(shown.window, `window ${expected.windows} / ${expected.windows}`);
  }
  await screenshot(page, 'docs-players-ended');
  // Its button pauses and plays again.
  const toggle = page.locator('#hemem').locator('button.toggle');
  await toggle.click();
  assert.equal((await readPlayer(page, '#hemem')).state, 'playing');
  await toggle.click();
  assert.equal((await readPlayer(page, '#hemem')).state, 'paused');
  await page.close();
});

test('a player replays a recording and acts with a policy file given by URL', async () => {
  const page = await browser.page(problems);
  await page.goto(`${browser.url}docs.html`);
  const config = { trace: 'synth:phased:20000:5:32', bins: 16, hbm_capacity: '10%' };
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-player-')), 'episode.json');
  native(['run', 'memtier', '--policy', 'memtis', '--config', JSON.stringify(config), '--record', file, '--json']);
  const recording = fs.readFileSync(file, 'utf8');
  const policyText = fs.readFileSync(path.join(root, 'data/policies/memtier/dqn-per-bin.json'), 'utf8');
  await page.evaluate(([episode, policy]) => {
    const add = (id, attributes) => {
      const el = document.createElement('sysgym-player');
      el.id = id;
      for (const [k, v] of Object.entries(attributes)) el.setAttribute(k, v);
      document.querySelector('main').append(el);
    };
    add('recorded', { 'episode-src': `data:application/json,${encodeURIComponent(episode)}`, speed: '1000' });
    add('learned', { trace: 'sqlite', 'policy-src': `data:application/json,${encodeURIComponent(policy)}`, speed: '1000' });
  }, [recording, policyText]);
  await waitForState(page, '#recorded', ['ended']);
  const recorded = await readPlayer(page, '#recorded');
  assert.equal(recorded.total, JSON.parse(recording).summary.total_ms);
  assert.match(recorded.title, /memtis on synth:phased:20000:5:32 \(recorded\)/);
  await waitForState(page, '#learned', ['ended']);
  const policy = JSON.parse(policyText);
  const shape = Object.fromEntries(['bins', 'action_mode', 'history', 'interval_distance', 'admission'].map((k) => [k, policy.env.config[k]]));
  const expected = native(['run', 'memtier', '--policy', 'learned', '--policy-config', 'data/policies/memtier/dqn-per-bin.json', '--config',
    JSON.stringify({ trace: 'data/real/sqlite.ddr.bin,data/real/sqlite.hbm.bin', hbm_capacity: '10%', ...shape }), '--json']);
  assert.equal((await readPlayer(page, '#learned')).total, expected.total_ms);
  await page.close();
});

test('a player with a bad attribute shows the problem inside itself and the page goes on', async () => {
  const page = await browser.page(problems);
  await page.goto(`${browser.url}docs.html`);
  await page.evaluate(() => {
    const bad = document.createElement('sysgym-player');
    bad.id = 'bad';
    bad.setAttribute('trace', 'synth:phased');
    bad.setAttribute('policy', 'lruu');
    document.querySelector('main').prepend(bad);
  });
  await waitForState(page, '#bad', ['error']);
  const bad = await readPlayer(page, '#bad');
  assert.match(bad.error, /unknown policy 'lruu'.*did you mean 'lru'/i);
  assert.deepEqual(bad.visible, { '.chart': false, '.legend': false, '.bar': false, 'button.toggle': false },
    'an error replaces the chart, figures and button');
  await waitForState(page, '#hemem', ['playing', 'ended']);
  await screenshot(page, 'docs-player-error');
  await page.close();
});

test('the playground fits a narrow screen without sideways scrolling', async () => {
  const page = await browser.page(problems);
  await page.setViewportSize({ width: 390, height: 844 });
  await openPlayground(browser, page);
  await runToEnd(page, { trace: 'sqlite', policy: 'builtin:lfu-hemem' });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page is ${width} px wide on a 390 px screen`);
  await screenshot(page, 'playground-narrow');
  // The comparison's table and charts too (they once made the page 461-559 px wide).
  await page.click('#compare');
  await page.waitForFunction(() => document.querySelector('#comparison').getAttribute('aria-busy') === 'false'
    && document.querySelectorAll('#comparison tbody tr').length > 3, null, { timeout: 120000 });
  await page.waitForTimeout(500);
  const compared = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(compared <= 390, `after Compare the page is ${compared} px wide on a 390 px screen`);
  await screenshot(page, 'playground-narrow-compared');
  await page.close();
});

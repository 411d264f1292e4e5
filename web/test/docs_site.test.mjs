// The docs as a site (web/docs_site.mjs): every page of README.md and docs/ loads without an
// error, its links reach pages of the site, and every <sysgym-player> on it plays to its end,
// however many share the page's worker; on a phone's width no page scrolls sideways.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { screenshot, startBrowser } from './browser.mjs';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const pages = JSON.parse(fs.readFileSync(path.join(dist, 'docs/pages.json'), 'utf8'));
let browser;
const problems = [];

before(async () => {
  browser = await startBrowser();
});
after(async () => {
  await browser?.close();
  assert.deepEqual(problems, [], 'the pages logged no errors');
});

test('the site has a page for the README and each docs page, and a family page embeds its own player', () => {
  const sources = pages.map((p) => p.source);
  assert.ok(sources.includes('README.md'));
  for (const family of ['memtier', 'tensorplace', 'looptune', 'inline']) {
    const page = pages.find((p) => p.source === `docs/envs/${family}.md`);
    assert.ok(page?.players >= 1, `docs/envs/${family}.md embeds a player`);
  }
  assert.ok(pages.some((p) => p.players >= 3), 'some page holds three or more players');
});

for (const { page, players, title } of pages) {
  test(`${page} loads, links within the site and plays its ${players} player(s) to the end`, async () => {
    const tab = await browser.page(problems);
    await tab.goto(`${browser.url}${page}`);
    assert.equal((await tab.locator('main h1').first().textContent()).startsWith(title), true);
    // Every link to another page of the site reaches one (anchors and the outside world aside).
    const hrefs = await tab.$$eval('main a[href], nav a[href]', (as) => as.map((a) => a.href));
    for (const href of new Set(hrefs)) {
      if (!href.startsWith(browser.url)) continue;
      const file = decodeURIComponent(new URL(href).pathname).slice(1);
      assert.ok(fs.existsSync(path.join(dist, file)), `${page} links to ${file}, which the site lacks`);
    }
    if (players > 0) {
      assert.equal(await tab.locator('main sysgym-player').count(), players);
      await tab.waitForFunction(() => [...document.querySelectorAll('sysgym-player')]
        .every((p) => p.dataset.state === 'ended' || p.dataset.state === 'error'), null, { timeout: 180000 });
      const states = await tab.$$eval('sysgym-player', (ps) => ps.map((p) => ({
        state: p.dataset.state,
        title: p.shadowRoot.querySelector('.title').textContent,
        error: p.shadowRoot.querySelector('.error').textContent,
        drawn: p.shadowRoot.querySelector('canvas, svg') !== null,
      })));
      for (const s of states) {
        assert.equal(s.state, 'ended', `${s.title}: ${s.error}`);
        assert.ok(s.drawn, `${s.title}: the chart is drawn`);
      }
      await screenshot(tab, `docs-site-${page.replace(/[/.]/g, '-')}`);
    }
    await tab.close();
  });
}

test('no page of the site scrolls sideways on a 390 px phone', async () => {
  const tab = await browser.page(problems);
  await tab.setViewportSize({ width: 390, height: 844 });
  const wide = [];
  for (const { page } of pages) {
    await tab.goto(`${browser.url}${page}`);
    const width = await tab.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) wide.push(`${page}: ${width} px`);
  }
  assert.deepEqual(wide, []);
  await tab.close();
});

// The player as an npm user gets it: a page that loads `node_modules/sysgym/player/player.js`
// from the installed package (nothing of web/dist) plays a shipped trace from the package's own
// data to the native tool's totals.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { native, root, screenshot, startBrowser } from './browser.mjs';

const packageDir = process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package');
const site = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-npm-player-'));
const problems = [];
let browser;

before(async () => {
  fs.cpSync(packageDir, path.join(site, 'node_modules/sysgym'), { recursive: true });
  fs.writeFileSync(path.join(site, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>a user's page</title><link rel="icon" href="data:,">
<script type="module" src="node_modules/sysgym/player/player.js"></script></head>
<body><h1>Notes on HBM placement</h1>
<sysgym-player id="p" trace="xz" policy="lfu-hemem" config='{"hbm_capacity": "10%"}' speed="1000"></sysgym-player>
</body></html>`);
  browser = await startBrowser(site);
});
after(async () => {
  await browser?.close();
  fs.rmSync(site, { recursive: true, force: true });
  assert.deepEqual(problems, [], 'the page logged no errors');
});

test('the package\'s player plays a shipped trace from the package on a user\'s page', async () => {
  assert.ok(fs.existsSync(path.join(packageDir, 'player/player.js')), 'the wasm build bundles player/ into the package');
  const page = await browser.page(problems);
  await page.goto(`${browser.url}index.html`);
  await page.waitForFunction(() => ['ended', 'error'].includes(document.querySelector('#p')?.dataset.state), null, { timeout: 120000 });
  const shown = await page.locator('#p').evaluate((el) => ({
    state: el.dataset.state,
    error: el.shadowRoot.querySelector('.error').textContent,
    total: Number(el.shadowRoot.querySelector('.total').dataset.value),
  }));
  assert.equal(shown.state, 'ended', shown.error);
  const expected = native(['run', 'memtier', '--policy', 'lfu-hemem', '--config',
    JSON.stringify({ trace: 'data/real/xz.ddr.bin,data/real/xz.hbm.bin', hbm_capacity: '10%' }), '--json']);
  assert.equal(shown.total, expected.total_ms);
  await screenshot(page, 'npm-player');
  await page.close();
});

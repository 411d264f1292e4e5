// inline's view in the playground and in a <sysgym-player>: an episode on a shipped program ends
// on the native tool's figures, the call graph's estimates equal `sysgym inline estimate` for the
// episode's decisions and for decisions set by hand, a dropped program file plays as natively,
// and the docs page's inline player colours the graph by clang's decisions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { native, root, screenshot, sharedPlayground, waitForEnd } from './browser.mjs';

const shared = sharedPlayground({ hash: '#env=inline-v0&policy=builtin%3Asize-threshold&program=lz4' });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-inline-view-'));
const estimate = (...args) => native(['inline', 'estimate', ...args, '--json']);
const lz4 = estimate('program=lz4', '--graph');
const shownText = (page) => page.locator('#inline-figures').evaluate((t) => Number(t.dataset.text));

// Clicks function `f`'s node where the chart draws it.
async function clickFunction(page, f) {
  await page.locator('#inline-graph').scrollIntoViewIfNeeded();
  const point = await page.evaluate((fn) => {
    const c = document.querySelector('#inline-graph').chartInstance;
    const node = c.getOption().series[0].data.find((n) => n.id === String(fn));
    return c.convertToPixel({ seriesIndex: 0 }, [node.x, node.y]);
  }, f);
  const box = await page.locator('#inline-graph').boundingBox();
  await page.mouse.click(box.x + point[0], box.y + point[1]);
}

async function run(page) {
  await page.selectOption('#speed', 'Infinity');
  await page.click('#run');
  await waitForEnd(page);
}

// Waits until the explorer's table shows `text` bytes (the worker answers asynchronously).
async function waitForText(page, text) {
  await page.waitForFunction((t) => Number(document.querySelector('#inline-figures')?.dataset.text) === t, text, { timeout: 30000 });
}

test('an episode on lz4 ends on the native figures and its decisions\' estimate is the native one', async () => {
  const { page } = shared;
  await run(page);
  const expected = native(['run', 'inline-v0', 'program=lz4', '--policy', 'size-threshold', '--json']);
  for (const [id, key] of [['text-vs-oz', 'text_vs_Oz'], ['instr-vs-o2', 'instructions_vs_O2'], ['score', 'score']]) {
    assert.equal(Number(await page.locator(`#${id}`).getAttribute('data-value')), expected[key], key);
  }
  const decided = estimate('program=lz4', '--policy', 'size-threshold');
  assert.equal(decided.text_bytes, expected.text_bytes);
  await waitForText(page, decided.text_bytes);
  assert.equal(await page.locator('#inline-shown td').nth(0).textContent(), decided.inlined.toLocaleString('en-US'));
  const pairs = new Set(lz4.graph.sites.filter((s) => s.caller !== s.callee).map((s) => `${s.caller}>${s.callee}`));
  assert.equal(Number(await page.locator('#inline-graph').getAttribute('data-edges')), pairs.size);
  // Back to the middle of the episode: only the sites decided so far count.
  await page.fill('#jump-to', '100');
  await page.dispatchEvent('#jump-to', 'change');
  await page.waitForFunction(() => /after step 101:/.test(document.querySelector('#inline-status').textContent), null, { timeout: 30000 });
  await screenshot(page, 'inline-episode');
});

test('decisions set by hand on the graph move the estimates as the native tool computes them', async () => {
  const { page } = shared;
  await page.click('#inline-from-oz');
  const oz = estimate('program=lz4', '--decisions', 'Oz');
  await waitForText(page, oz.text_bytes);
  assert.equal(await page.locator('#inline-graph').getAttribute('data-mode'), 'hand');
  // The function with the most call sites, clicked where the chart draws it.
  const sitesOf = lz4.graph.functions.map((_, f) => lz4.graph.sites.filter((s) => s.caller === f).length);
  const busiest = sitesOf.indexOf(Math.max(...sitesOf));
  await clickFunction(page, busiest);
  await page.waitForSelector('#inline-sites table', { timeout: 10000 });
  assert.match(await page.locator('#inline-sites h3').textContent(), new RegExp(`^${lz4.graph.functions[busiest].name}: ${sitesOf[busiest]} call sites`));
  // Its first site kept by -Oz, inlined by hand.
  const site = lz4.graph.sites.findIndex((s) => s.caller === busiest && !s.oz);
  await page.check(`#inline-site-${site}`);
  const ids = lz4.graph.sites.filter((s, i) => s.oz || i === site).map((s) => s.id);
  const file = path.join(tmp, 'hand.json');
  fs.writeFileSync(file, JSON.stringify({ kind: 'sysgym-inline-decisions', schema_version: 1, program: 'lz4', inline: ids }));
  const byHand = estimate('program=lz4', '--decisions', file);
  assert.notEqual(byHand.text_bytes, oz.text_bytes);
  await waitForText(page, byHand.text_bytes);
  assert.equal(await page.locator('#inline-shown td').last().textContent(), byHand.score.toFixed(4));
  await screenshot(page, 'inline-by-hand');
  await page.click('#inline-follow');
  await page.waitForFunction(() => document.querySelector('#inline-graph').dataset.mode === 'episode');
});

test('a dropped program file plays as the native tool plays it; a broken one is named', async () => {
  const { page } = shared;
  const mine = path.join(tmp, 'mine.json');
  fs.copyFileSync(path.join(root, 'data/inline/argon2.json'), mine);
  await page.setInputFiles('#files', mine);
  await page.waitForFunction(() => document.querySelector('#inline-program').value === 'mine.json');
  await page.selectOption('#policy', 'builtin:never');
  await run(page);
  const expected = native(['run', 'inline-v0', `program=${mine}`, '--policy', 'never', '--json']);
  assert.equal(Number(await page.locator('#score').getAttribute('data-value')), expected.score);
  await waitForText(page, expected.text_bytes);
  // argon2's secure_wipe_memory is noinline: its calls are listed, with no box to tick.
  const graph = estimate(`program=${mine}`, '--graph').graph;
  const wipe = graph.sites.findIndex((s) => s.never === 'noinline');
  await clickFunction(page, graph.sites[wipe].caller);
  await page.waitForSelector(`#inline-site-${wipe}`, { timeout: 10000 });
  assert.equal(await page.locator(`#inline-site-${wipe}`).isDisabled(), true);
  assert.match(await page.locator('#inline-sites tr', { has: page.locator(`#inline-site-${wipe}`) }).textContent(), /never \(noinline\)/);

  const broken = path.join(tmp, 'broken.json');
  fs.writeFileSync(broken, JSON.stringify({ kind: 'sysgym-inline-program', schema_version: 99 }));
  await page.setInputFiles('#files', broken);
  await page.waitForFunction(() => document.querySelector('#inline-program').value === 'broken.json');
  await page.click('#run');
  await page.waitForSelector('#errors p', { timeout: 30000 });
  assert.match(await page.locator('#errors p').first().textContent(), /broken\.json.*schema_version/);
});

test('an inline player on the docs page colours LMDB\'s call graph by clang\'s -Oz decisions', async () => {
  const page = await shared.browser.page(shared.problems);
  await page.goto(`${shared.browser.url}docs.html`);
  // The page's own players make way: this one plays alone (the code the page shows).
  await page.evaluate(() => {
    for (const p of document.querySelectorAll('sysgym-player')) p.remove();
    const player = document.createElement('sysgym-player');
    Object.assign(player, { id: 'inline' });
    player.setAttribute('env', 'inline-v0');
    player.setAttribute('policy', 'clang-Oz');
    player.setAttribute('config', '{"program": "lmdb"}');
    player.setAttribute('speed', '120');
    document.querySelector('main').append(player);
  });
  await page.waitForFunction(() => document.querySelector('#inline')?.dataset.state === 'ended', null, { timeout: 120000 });
  const lmdb = estimate('program=lmdb', '--graph').graph;
  const pairs = new Map();
  for (const s of lmdb.sites.filter((x) => x.caller !== x.callee)) {
    const key = `${s.caller}>${s.callee}`;
    pairs.set(key, (pairs.get(key) ?? true) && s.oz);
  }
  // Every pair whose sites -Oz all inlines is green, except the last site's pair, drawn as decided.
  const last = lmdb.sites[lmdb.order.at(-1)];
  const lastAllInlined = pairs.get(`${last.caller}>${last.callee}`) === true;
  const green = [...pairs.values()].filter(Boolean).length - (lastAllInlined ? 1 : 0);
  const shown = await page.locator('#inline').evaluate((el) => ({ ...el.shadowRoot.querySelector('.chart').dataset,
    inlined: el.shadowRoot.querySelector('.inlined').textContent }));
  assert.equal(Number(shown.edges), pairs.size);
  assert.equal(Number(shown.inlinedEdges), green);
  assert.equal(shown.inlined, estimate('program=lmdb', '--decisions', 'Oz').inlined.toLocaleString('en-US'));
  await screenshot(page, 'inline-player');
  await page.close();
});

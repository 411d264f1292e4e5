// The generic view: what the playground shows of an env with no view of its own, exercised on
// memtier through #view=generic. Every config key of the env's schema is a field, an episode's
// return and primary metric are the native run's, the frame arrays are drawn, and a bad value is
// named at its field from the schema's range.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { native, openPlayground, screenshot, sharedPlayground, waitForEnd } from './browser.mjs';

const shared = sharedPlayground();
let page = null; // a page of its own: the shared one is open without the fragment

test('the generic view runs any env from its schema alone and ends with the native return', async () => {
  page = await shared.browser.page(shared.problems);
  const schema = native(['describe', 'memtier', '--json']).config_schema;
  await openPlayground(shared.browser, page, '#env=memtier-v0&view=generic&policy=builtin%3Alru&trace=synth%3Aphased&bins=16&hbm_capacity=10%25');
  const fields = await page.locator('#env-fields .field input, #env-fields .field select').evaluateAll((els) => els.map((e) => e.name));
  assert.deepEqual(fields, schema.map((k) => k.name), 'one field per schema key, in the schema\'s order');
  assert.equal(await page.locator('#heatmap').count(), 0, 'memtier\'s own charts are not drawn');
  await page.selectOption('#speed', 'Infinity');
  await page.click('#run');
  await waitForEnd(page);
  const expected = native(['run', 'memtier', '--policy', 'lru', '--config',
    JSON.stringify({ trace: 'synth:phased', bins: 16, hbm_capacity: '10%' }), '--json']);
  assert.equal(Number(await page.locator('#return').getAttribute('data-value')), expected.return);
  assert.equal(Number(await page.locator('#metric').getAttribute('data-value')), expected.gap_closed);
  assert.equal(await page.textContent('#metric-name'), 'gap_closed (at the end)');
  assert.equal(await page.locator('#window-counter').getAttribute('data-shown'), String(expected.windows));
  assert.equal(await page.locator('#frame-chart canvas').count(), 1, 'the frame arrays are drawn');
  await screenshot(page, 'playground-generic-view');
});

test('the generic view names a value outside the schema\'s range at its field', async () => {
  await page.fill('#page_size', '99');
  await page.click('#run');
  assert.equal(await page.textContent('#page_size-error'), 'Expected a whole number from 6 to 30 (log2 bytes).');
  assert.match(await page.locator('#errors').textContent(), /The episode form has problems/);
  await page.fill('#page_size', '');
  await page.fill('#trace', '');
  await page.click('#run');
  assert.equal(await page.textContent('#trace-error'), 'Expected a value (this key has no default).');
});

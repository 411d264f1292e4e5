// The playground against the native tool: the totals it shows at the end of an episode are the
// figures `sysgym run --json` prints for the same trace and config, bit for bit; recordings
// replay; exports are what `sysgym run --record` writes; the comparison table is `compare`'s.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { formatMs, formatPercent } from '../src/shell/format.js';
import { figure, fillForm, native, root, runToEnd, screenshot, sharedPlayground, waitForEnd } from './browser.mjs';

const pair = (name) => `data/real/${name}.ddr.bin,data/real/${name}.hbm.bin`;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-web-'));
const shared = sharedPlayground();

async function assertTotals(expected) {
  const total = await figure(shared.page, 'total-ms');
  const gap = await figure(shared.page, 'gap-closed');
  assert.equal(total.value, expected.total_ms);
  assert.equal(total.text, formatMs(expected.total_ms));
  assert.equal(gap.value, expected.gap_closed);
  assert.equal(gap.text, formatPercent(expected.gap_closed));
  assert.equal((await figure(shared.page, 'migration-ms')).value, expected.migration_ms);
}

const baselines = [
  { trace: 'xz', policy: 'lfu-hemem', fields: { hbm_capacity: '10%' }, config: { hbm_capacity: '10%' } },
  { trace: 'sqlite', policy: 'static-oracle', fields: { hbm_capacity: '25%', bins: '32', migration_gbps: '8' },
    config: { hbm_capacity: '25%', bins: 32, migration_gbps: 8 } },
  { trace: 'hpcc-stream', policy: 'memtis', fields: { hbm_capacity: '1MiB' }, config: { hbm_capacity: '1MiB' } },
  { trace: 'lammps', policy: 'autonuma', fields: { hbm_capacity: '5%' }, config: { hbm_capacity: '5%' } },
];
for (const c of baselines) {
  test(`${c.policy} on ${c.trace} ends with the totals of the native run --json`, async () => {
    await runToEnd(shared.page, { trace: c.trace, policy: `builtin:${c.policy}`, fields: c.fields });
    const expected = native(['run', 'memtier', '--policy', c.policy, '--config', JSON.stringify({ trace: pair(c.trace), ...c.config }), '--json']);
    await assertTotals(expected);
    const shown = Number(await shared.page.locator('#window-counter').getAttribute('data-shown'));
    assert.equal(shown, expected.windows);
    await screenshot(shared.page, `playground-${c.trace}-${c.policy}`);
  });
}

test('a shipped learned policy acts in the browser as it does natively', async () => {
  await runToEnd(shared.page, { trace: 'xz', policy: 'shipped:dqn-per-bin', fields: { hbm_capacity: '10%' } });
  const policy = JSON.parse(fs.readFileSync(path.join(root, 'data/policies/memtier/dqn-per-bin.json'), 'utf8'));
  const shape = Object.fromEntries(['bins', 'action_mode', 'history', 'interval_distance', 'admission'].map((k) => [k, policy.env.config[k]]));
  const expected = native(['run', 'memtier', '--policy', 'learned', '--policy-config', 'data/policies/memtier/dqn-per-bin.json', '--config',
    JSON.stringify({ trace: pair('xz'), hbm_capacity: '10%', migration_gbps: 1.6384, ...shape }), '--json']);
  await assertTotals(expected);
  assert.equal(await shared.page.locator('#bins').isDisabled(), true, 'a learned policy fixes the bins');
  // Its description says what trained it and which fields it sets, in words.
  const about = await shared.page.textContent('#policy-about');
  assert.match(about, /^A DQN policy trained natively for [\d,]+ steps over trace [^.]*\. Here it sets .*bins.*; the other fields are yours\.$/);
  assert.doesNotMatch(about, /\[object Object\]|\? steps|, ,| ,/);
});

test('a recorded episode replays window by window to its recorded totals', async () => {
  const file = path.join(tmp, 'memtis-sqlite.json');
  native(['run', 'memtier', '--policy', 'memtis', '--config', JSON.stringify({ trace: pair('sqlite'), hbm_capacity: '10%', bins: 16 }),
    '--record', file, '--json']);
  const recorded = JSON.parse(fs.readFileSync(file, 'utf8'));
  await shared.page.setInputFiles('#files', file);
  await waitForEnd(shared.page);
  // Once every step has arrived, the status says the replay matched (a differing reward is an error).
  assert.match(await shared.page.textContent('#status'),
    new RegExp(`^Replayed memtis-sqlite\\.json: all ${recorded.steps.length} windows, every reward equal to the recording's`));
  await assertTotals(recorded.summary);
  assert.equal(Number(await shared.page.locator('#window-counter').getAttribute('data-shown')), recorded.steps.length);
  await screenshot(shared.page, 'playground-replay');
});

test('an exported episode is exactly what `sysgym run --record` writes', async () => {
  await runToEnd(shared.page, { trace: 'synth:phased', policy: 'builtin:lru', fields: { hbm_capacity: '10%', bins: '16', seed: '3' } });
  const [download] = await Promise.all([shared.page.waitForEvent('download'), shared.page.click('#export')]);
  const exported = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
  const file = path.join(tmp, 'lru.json');
  native(['run', 'memtier', '--policy', 'lru', '--seed', '3', '--config',
    JSON.stringify({ trace: 'synth:phased', hbm_capacity: '10%', bins: 16, migration_gbps: 1.6384 }), '--record', file, '--json']);
  const expected = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(exported.observation_hash, expected.observation_hash);
  assert.deepEqual(exported.summary, expected.summary);
  // The whole recording (every action, reward and info), without printing megabytes on failure.
  assert.ok(JSON.stringify(exported) === JSON.stringify(expected), 'the export equals the native recording');
});

test('the comparison table holds every policy with the figures of the native compare', async () => {
  await fillForm(shared.page, { trace: 'sqlite', policy: 'builtin:lru', fields: { hbm_capacity: '25%' } });
  await shared.page.click('#compare');
  const expected = native(['compare', 'memtier', `trace=${pair('sqlite')}`, 'hbm_capacity=25%', '--config', '{"migration_gbps": 1.6384}', '--json']);
  await shared.page.waitForFunction((n) => document.querySelectorAll('#comparison tbody tr').length === n &&
    document.querySelector('#comparison').getAttribute('aria-busy') === 'false', expected.length, { timeout: 120000 });
  for (const row of expected) {
    const cell = (key) => shared.page.locator(`#comparison tbody tr[data-policy="${row.policy}"] td[data-key="${key}"]`);
    for (const key of ['estimated_ms', 'migration_ms', 'total_ms', 'gap_closed', 'bytes_moved']) {
      assert.equal(Number(await cell(key).getAttribute('data-value')), row[key], `${row.policy} ${key}`);
    }
    const name = await shared.page.locator(`#comparison tbody tr[data-policy="${row.policy}"] th`).textContent();
    assert.equal(name.includes('oracle: reads the future'), row.oracle, `${row.policy} is marked as an oracle exactly when it is one`);
  }
  const totals = await shared.page.locator('#comparison tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.dataset.rank)));
  assert.deepEqual(totals, [...totals].sort((a, b) => a - b), 'rows are sorted by total time, as the env ranks them');
  assert.deepEqual(await shared.page.locator('#comparison thead th').allTextContents(),
    ['Policy', 'Estimated', 'Migration', 'Total', 'Gap closed', 'Moved'], 'the columns are the env\'s report columns');
  assert.equal(await shared.page.locator('#comparison-bars').getAttribute('data-bars'), String(expected.length), 'a bar per policy');
  assert.equal(await shared.page.locator('#comparison-curves').getAttribute('data-curves'), String(expected.length), 'a return curve per policy');
  await screenshot(shared.page, 'playground-comparison');

  // Choosing a row plays that policy: its episode ends on the row's figures.
  const memtis = expected.find((r) => r.policy === 'memtis');
  await shared.page.selectOption('#speed', 'Infinity');
  await shared.page.click('#comparison tbody tr[data-policy="memtis"]');
  assert.equal(await shared.page.inputValue('#policy'), 'builtin:memtis');
  await waitForEnd(shared.page);
  assert.equal((await figure(shared.page, 'total-ms')).value, memtis.total_ms);
});

test('keyboard controls step, seek and play the episode shown', async () => {
  await runToEnd(shared.page, { trace: 'synth:stream', policy: 'builtin:autonuma', fields: { hbm_capacity: '10%' } });
  await shared.page.locator('#play').focus();
  await shared.page.keyboard.press('Home');
  assert.equal(await shared.page.locator('#window-counter').getAttribute('data-shown'), '1');
  await shared.page.keyboard.press('ArrowRight');
  await shared.page.keyboard.press('ArrowRight');
  assert.equal(await shared.page.locator('#window-counter').getAttribute('data-shown'), '3');
  await shared.page.keyboard.press('ArrowLeft');
  assert.equal(await shared.page.locator('#window-counter').getAttribute('data-shown'), '2');
  await shared.page.keyboard.press('End');
  assert.equal(await shared.page.evaluate(() => document.body.dataset.complete), 'true');
  await shared.page.locator('#jump-to').fill('10');
  await shared.page.locator('#jump-to').press('Enter');
  assert.equal(await shared.page.locator('#window-counter').getAttribute('data-shown'), '11');
});

test('a shared link opens the same trace, policy and config', async () => {
  await fillForm(shared.page, { trace: 'lammps', policy: 'builtin:memtis', fields: { hbm_capacity: '64MiB', bins: '48' } });
  await shared.page.click('#share');
  const url = shared.page.url();
  assert.match(url, /#env=memtier-v0&policy=builtin%3Amemtis&trace=lammps&hbm_capacity=64MiB&bins=48/);
  const other = await shared.browser.page(shared.problems);
  await other.goto(url);
  await other.waitForSelector('body[data-ready="true"]');
  assert.equal(await other.inputValue('#trace'), 'lammps');
  assert.equal(await other.inputValue('#policy'), 'builtin:memtis');
  assert.equal(await other.inputValue('#hbm_capacity'), '64MiB');
  assert.equal(await other.inputValue('#bins'), '48');
  await other.close();
});

test('the page keeps drawing while the worker computes a 1 M-sample trace', async () => {
  await fillForm(shared.page, { trace: 'synth:random:1000000', policy: 'builtin:lfu-hemem' });
  await shared.page.selectOption('#speed', 'Infinity');
  // Count animation frames the main thread runs until the episode is complete.
  await shared.page.evaluate(() => {
    window.framesWhileComputing = 0;
    const count = () => {
      window.framesWhileComputing += 1;
      if (document.body.dataset.complete !== 'true') requestAnimationFrame(count);
    };
    requestAnimationFrame(count);
  });
  await shared.page.click('#run');
  await waitForEnd(shared.page);
  const frames = await shared.page.evaluate(() => window.framesWhileComputing);
  assert.ok(frames >= 10, `the page drew ${frames} frames while computing`);
  await screenshot(shared.page, 'playground-1M-samples');
});

// Bad input in the browser: files and form values that cannot be used give an error that names
// the file or field and the problem, and the page goes on working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { figure, fillForm, native, root, runToEnd, screenshot, sharedPlayground } from './browser.mjs';

const shared = sharedPlayground();

test('a dropped CSV pair and a dropped preprocessed pair run like the native tool on the same files', async () => {
  const csv = ['ddr', 'hbm'].map((side) => path.join(root, `data/synth/phased.${side}.csv`));
  await shared.page.setInputFiles('#files', csv);
  await shared.page.waitForFunction(() => document.querySelector('#trace').value === 'dropped:phased.ddr.csv,phased.hbm.csv');
  await runToEnd(shared.page, { policy: 'builtin:lru', fields: { hbm_capacity: '10%', bins: '32' } });
  const expected = native(['run', 'memtier', '--policy', 'lru', '--config', JSON.stringify({ trace: csv.join(','), hbm_capacity: '10%', bins: 32 }), '--json']);
  assert.equal((await figure(shared.page, 'total-ms')).value, expected.total_ms);

  const prepared = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-drop-')), 'phased-memai.bin');
  native(['preprocess', '--ddr', csv[0], '--hbm', csv[1], '--mode', 'memai', '-o', prepared, '--json']);
  await shared.page.setInputFiles('#files', prepared);
  await shared.page.waitForFunction(() => document.querySelector('#trace').value === 'dropped:phased-memai.bin');
  await runToEnd(shared.page, { policy: 'builtin:static-oracle', fields: { hbm_capacity: '25%', bins: '16' } });
  const fromFile = native(['run', 'memtier', '--policy', 'static-oracle', '--config', JSON.stringify({ trace: prepared, hbm_capacity: '25%', bins: 16 }), '--json']);
  assert.equal((await figure(shared.page, 'total-ms')).value, fromFile.total_ms);
  assert.equal((await figure(shared.page, 'gap-closed')).value, fromFile.gap_closed);
});

const file = (name, text) => ({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(text) });

async function errorsAfterDropping(files) {
  await shared.page.setInputFiles('#files', files);
  await shared.page.waitForSelector('#errors p');
  return shared.page.locator('#errors p').allTextContents();
}

test('a malformed trace pair names the file and the problem, and the page keeps working', async () => {
  const errors = await errorsAfterDropping([
    file('broken.ddr.csv', 'this is not,a trace\n1,2\n'),
    file('broken.hbm.csv', 'this is not,a trace\n1,2\n'),
  ]);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /^broken\.ddr\.csv \+ broken\.hbm\.csv: /);
  assert.match(errors[0], /DDR/);
  await screenshot(shared.page, 'inputs-malformed-trace');
  // Still usable: an episode runs after the error.
  await runToEnd(shared.page, { trace: 'synth:phased', policy: 'builtin:lru' });
  assert.equal(await shared.page.evaluate(() => document.body.dataset.complete), 'true');
});

const cases = [
  [[file('notes.json', '{"kind": "notes"}')], /^notes\.json: neither a recorded episode, a policy file, a profile nor a sysgym data file \("kind" is "notes"\)$/],
  [[file('cut.json', '{"kind": "sysgym-episode", ')], /^cut\.json: not valid JSON/],
  [[file('empty.ddr.csv', ''), file('empty.hbm.csv', 'x')], /^empty\.ddr\.csv: the file is empty$/],
  [[file('lonely.ddr.bin', 'abc')], /^lonely\.ddr\.bin: a trace pair is one file with "ddr" and one with "hbm"/],
  [[file('pair.bin', 'SYSGYM but not really')], /^pair\.bin: /],
  [[file('other.episode.json', JSON.stringify({ kind: 'sysgym-episode', schema_version: 1, config: { trace: '/home/me/app.ddr.bin,/home/me/app.hbm.bin' }, steps: [] }))],
    /^other\.episode\.json: the episode was recorded on trace "\/home\/me\/app\.ddr\.bin,\/home\/me\/app\.hbm\.bin", which is not loaded here/],
  [[file('deep.json', `{"kind": "sysgym-episode", "config": ${'['.repeat(100000)}${']'.repeat(100000)}}`)],
    /^deep\.json: JSON nested deeper than 64 levels$/],
  [[file('future.json', JSON.stringify({ kind: 'sysgym-episode', schema_version: 7, config: { trace: 'synth:phased' }, seed: 0, start: 0, steps: [] }))],
    /schema_version 7 is not supported/],
];
for (const [files, expected] of cases) {
  test(`${files.map((f) => f.name).join(' + ')} is refused with a message naming it`, async () => {
    const errors = await errorsAfterDropping(files);
    assert.ok(errors.some((e) => expected.test(e)), `errors shown: ${JSON.stringify(errors)}`);
  });
}

test('a policy file for another env shape fails when its episode starts, naming the mismatch', async () => {
  const policy = { kind: 'sysgym-policy', schema_version: 1, agent: 'dqn', env: { id: 'memtier-v0', config: { bins: 8 } } };
  await shared.page.setInputFiles('#files', [file('half.json', JSON.stringify(policy))]);
  await shared.page.waitForFunction(() => document.querySelector('#policy').value === 'dropped:half.json');
  assert.equal(await shared.page.inputValue('#bins'), '8');
  await shared.page.click('#run');
  await shared.page.waitForSelector('#errors p');
  assert.match((await shared.page.locator('#errors p').allTextContents()).join(' '), /ConfigError: .*policy/i);
});

test('form values out of range are marked at their field and no episode starts', async () => {
  await fillForm(shared.page, { trace: 'synth:stream', policy: 'builtin:lru', fields: { hbm_capacity: 'lots', bins: '0', migration_gbps: '-1' } });
  await shared.page.click('#run');
  assert.equal(await shared.page.textContent('#hbm_capacity-error'), 'Expected a size such as 10%, 64MiB or 2097152 (bytes).');
  assert.equal(await shared.page.textContent('#bins-error'), 'Expected a whole number from 1 to 4096 (the env takes up to 65536; the heatmap draws 4096 rows at most).');
  assert.equal(await shared.page.textContent('#migration_gbps-error'), 'Expected a number from 0.000001 to 1000000 (GB/s, 10^9 bytes per second).');
  assert.equal(await shared.page.getAttribute('#hbm_capacity', 'aria-invalid'), 'true');
  assert.match(await shared.page.locator('#errors').textContent(), /The episode form has problems/);
  await screenshot(shared.page, 'inputs-form-validation');
  await fillForm(shared.page, { trace: 'synth:stream', policy: 'builtin:lru', fields: { hbm_capacity: '0%' } });
  await shared.page.click('#run');
  await shared.page.waitForSelector('#errors p');
  assert.match(await shared.page.locator('#errors').textContent(), /ConfigError: .*hbm_capacity/);
});

// Each family page's "Held-out protocol" section is what its recorded run gives
// (data/policies/FAMILY/held-out.json, written with the section by data/policies/held_out.mjs):
// a page edited by hand, or a run recorded without its page, fails here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import test from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('every family page shows its recorded held-out run', () => {
  const r = spawnSync('node', [path.join(root, 'data/policies/held_out.mjs'), 'check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});

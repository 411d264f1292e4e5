// The package as users get it: `npm pack` makes a tarball that installs into an empty project
// (offline: the package has no dependencies) and whose README examples run; its .d.ts declares
// exactly what the module exports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { packageDir } from './helpers.mjs';

test('the packed tarball installs into an empty project and every example of its README runs', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-pack-'));
  const tarball = execFileSync('npm', ['pack', packageDir, '--pack-destination', work, '--silent'], { encoding: 'utf8' }).trim();
  const project = path.join(work, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user-project', private: true, type: 'module' }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', path.join(work, tarball)], { cwd: project, stdio: 'pipe' });
  // The README's examples (one per family), as written there.
  const readme = fs.readFileSync(path.join(project, 'node_modules/sysgym/README.md'), 'utf8');
  const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(examples.length >= 4, 'an example per family');
  examples.forEach((example, i) => {
    fs.writeFileSync(path.join(project, `example${i}.mjs`), `${example}\n`);
    const output = execFileSync('node', [`example${i}.mjs`], { cwd: project, encoding: 'utf8' });
    assert.match(output, /\d/, `example ${i} printed ${output}`);
    if (i === 0) assert.ok(Number.isFinite(Number(output.trim().split('\n').pop())), `the first example printed ${output}`);
  });
  // The shipped traces, programs and policies of every family, the generated env types and the
  // embeddable player travel in the tarball.
  for (const file of ['data/real/xz.ddr.bin', 'data/synth/phased.hbm.csv', 'data/inline/lz4.json',
    'data/policies/memtier/dqn-swap.json', 'data/policies/tensorplace/ppo-per-operand.json',
    'data/policies/looptune/looptune-dqn.json', 'data/policies/inline/fyp-size.json',
    'envs.d.ts', 'player/player.js', 'player/worker.js', 'player/catalogue.json']) {
    assert.ok(fs.existsSync(path.join(project, 'node_modules/sysgym', file)), `${file} is in the package`);
  }
});

test('index.d.ts declares every export and method the module has, and no more', async () => {
  const dts = fs.readFileSync(path.join(packageDir, 'index.d.ts'), 'utf8');
  const module = await import(path.join(packageDir, 'index.mjs'));
  const declared = [...dts.matchAll(/^export (?:class|function) (\w+)/gm)].map((m) => m[1]).sort();
  const exported = Object.keys(module).sort();
  assert.deepEqual(declared, exported);
  // Class bodies: "{}" on the declaration line, or the lines up to a closing "}" line.
  for (const [, name, body = ''] of dts.matchAll(/^export class (\w+)[^{\n]*\{(?:\}|\n([\s\S]*?)^\})/gm)) {
    const methods = [...body.matchAll(/^\s+(\w+)(?:<[^>\n]*>)?\(/gm)].map((m) => m[1]);
    for (const method of methods) {
      assert.equal(typeof module[name].prototype[method], 'function', `${name}.${method} is declared but missing`);
    }
    const actual = Object.getOwnPropertyNames(module[name].prototype).filter(
      (p) => p !== 'constructor' && !Object.getOwnPropertyDescriptor(module[name].prototype, p).get,
    );
    for (const method of actual) assert.ok(methods.includes(method), `${name}.${method} exists but is not declared`);
  }
});

// The package's types hold for a TypeScript user: a typed example that uses spaces, config and
// info compiles under `tsc --strict` against the assembled package (envs.d.ts generated from the
// envs' schemas), and the mistakes a user makes (a misspelt config key, a choice outside the
// schema, an info key the env lacks) are compile errors. TypeScript comes from web/'s dev
// dependencies (./sysgym.sh test installs them).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { packageDir } from './helpers.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tsc = path.join(root, 'web/node_modules/.bin/tsc');

const EXAMPLE = `
import { load, type Env, type MemtierV0Info } from 'sysgym';

const sysgym = await load();
const env = sysgym.make('memtier', { trace: 'synth:phased:5000', bins: 16, hbm_capacity: '10%', action_mode: 'discrete' });
const bins: number = env.config.bins;
const mode: 'bins' | 'discrete' | 'swap' = env.config.action_mode;
const n: number | undefined = env.actionSpace.n;
const shape: number[] = env.observationSpace.shape;
const low: (number | null)[] | undefined = env.observationSpace.low;
const { observation, info } = env.reset({ seed: 1 });
const first: Float32Array = observation;
const ddr: number = info.t_ddr_ms;
const step = env.step(env.actionSpace.sample());
const occupancy: number = step.info.hbm_occupancy;
const kept: Env<unknown, MemtierV0Info> = env;
const envs = sysgym.makeVector('memtier', { trace: 'synth:phased:5000' }, 2);
const windows: Float64Array = envs.step(envs.actionSpace.sample()).infos.window;
const trainer = sysgym.trainer({ env: 'memtier', config: { trace: 'xz' }, agent: 'ppo', curveEvery: 100 });
const point = trainer.advance(100);
const gap: number | undefined = point?.mean_metric;
const state: Uint8Array = trainer.state();
const tables: string = sysgym.evalReport({ policies: [{ path: 'p', text: trainer.policy() }] }, false);
// @ts-expect-error a misspelt config key
sysgym.make('memtier', { trace: 'x', binz: 16 });
// @ts-expect-error a choice outside the schema
sysgym.make('memtier', { trace: 'x', action_mode: 'fast' });
// @ts-expect-error bins is a number
sysgym.make('memtier', { trace: 'x', bins: '16' });
// @ts-expect-error an info key the env does not have
const missing: number = info.not_a_key;
console.log(bins, mode, n, shape, low, first, ddr, occupancy, kept, windows, missing);
`;

test('a typed example compiles under tsc --strict, and config or info mistakes do not', () => {
  assert.ok(fs.existsSync(tsc), `${tsc} is missing: run npm ci in web/ (./sysgym.sh test does)`);
  assert.ok(fs.existsSync(path.join(packageDir, 'envs.d.ts')), 'the build generates envs.d.ts');
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-types-'));
  fs.mkdirSync(path.join(project, 'node_modules'));
  fs.symlinkSync(packageDir, path.join(project, 'node_modules/sysgym'), 'dir');
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'typed-user', private: true, type: 'module' }));
  fs.writeFileSync(path.join(project, 'example.ts'), EXAMPLE);
  const args = ['--strict', '--noEmit', '--target', 'es2022', '--module', 'nodenext', '--moduleResolution', 'nodenext', 'example.ts'];
  try {
    execFileSync(tsc, args, { cwd: project, encoding: 'utf8', stdio: 'pipe' });
  } catch (e) {
    assert.fail(`tsc --strict found errors:\n${e.stdout}${e.stderr}`);
  }
  // The same example with one more mistake fails: the check is real.
  fs.writeFileSync(path.join(project, 'example.ts'), `${EXAMPLE}\nconst wrong: string = env.config.bins;\n`);
  assert.throws(() => execFileSync(tsc, args, { cwd: project, stdio: 'pipe' }), (e) => /TS2322/.test(String(e.stdout)));
});

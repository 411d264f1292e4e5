// Trains the shipped tensorplace policy (`train`) and evaluates it (`eval`) as manifest.json says:
// every policy and heuristic by `sysgym eval`, AutoTM's synchronous ILP by `sysgym tensorplace
// ilp` (CBC) at the same model, batch and fast memory. `eval` writes results.json and prints the
// README's table (gap closed: 0 = all slow, 1 = all fast); `table` prints it from results.json.
// Usage: node data/policies/tensorplace/reproduce.mjs train|eval|table [path/to/sysgym]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { seedFiles } from '../seed_files.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const relative = path.relative(root, here);
const [what = 'table', binary] = process.argv.slice(2);
const sysgym = path.resolve(binary ?? path.join(root, 'build/native-release/sysgym'));
const manifest = JSON.parse(fs.readFileSync(path.join(here, 'manifest.json'), 'utf8'));
const run = (args) => execFileSync(sysgym, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const list = (values) => values.join(',');

// The files of a policy, one per training seed, from the repository root.
const filesOf = (p) => seedFiles(p).map(({ seed, file }) => ({ seed, file: `${relative}/${file}` }));

// The training grid (models and fast memories) is in each policy's train_args.
function train() {
  for (const p of manifest.policies) {
    for (const { seed, file } of filesOf(p)) {
      console.error(`training ${file}`);
      run(['train', manifest.env, `batch=${manifest.settings.batch}`, '--vary', `model=${list(manifest.split.train)}`,
        ...p.train_args, '--seed', String(seed), '-o', file]);
    }
  }
}

// The ILP's iteration as gap closed, against the env's own all-slow and all-fast bounds.
function ilpRow(model, fastMemory) {
  const { variant, gap, time_limit: timeLimit } = manifest.ilp;
  const r = JSON.parse(run(['tensorplace', 'ilp', '--model', model, '--batch', String(manifest.settings.batch), '--fast-memory', fastMemory,
    '--variant', variant, '--gap', String(gap), '--time-limit', String(timeLimit), '--json']));
  return { policy: `ilp-${variant}`, iteration_ms: r.iteration_ms, status: r.status, gap: r.gap, solve_seconds: r.solve_seconds,
    gap_closed: (r.all_slow_ms - r.iteration_ms) / (r.all_slow_ms - r.all_fast_ms) };
}

function evaluate() {
  const args = ['eval', manifest.env, `batch=${manifest.settings.batch}`, '--vary', `model=${list([...manifest.split.held_out, ...manifest.split.train])}`,
    '--vary', `fast_memory=${list(manifest.vary.fast_memory)}`, '--json'];
  for (const p of manifest.policies) {
    for (const { file } of filesOf(p)) args.push('--policy', file);
  }
  const tables = JSON.parse(run(args));
  for (const t of tables) {
    console.error(`ILP for ${t.config.model} at ${t.config.fast_memory}`);
    t.rows.push(ilpRow(t.config.model, t.config.fast_memory));
  }
  fs.writeFileSync(path.join(here, 'results.json'), `${JSON.stringify(tables, null, 1)}\n`);
}

// One row per model and fast memory: the learned policies (mean over their training seeds, and
// the range), the heuristics and the ILP; bold where a learned policy's mean beats every heuristic.
function table() {
  const results = JSON.parse(fs.readFileSync(path.join(here, 'results.json'), 'utf8'));
  const learned = manifest.policies.map((p) => filesOf(p).map(({ file }) => `learned:${file}`));
  const ilp = `ilp-${manifest.ilp.variant}`;
  const names = [...manifest.policies.map((p) => p.label), ...manifest.heuristics, `${manifest.ilp.variant} ILP (bound)`];
  const lines = [`| model, batch ${manifest.settings.batch} | fast memory | ${names.join(' | ')} |`, `|${'---|'.repeat(names.length + 2)}`];
  for (const r of results) {
    const gap = Object.fromEntries(r.rows.map((row) => [row.policy, row.gap_closed]));
    const best = Math.max(...manifest.heuristics.map((h) => gap[h]));
    const split = manifest.split.held_out.includes(r.config.model) ? 'held out' : 'train';
    const percent = (x) => `${(100 * x).toFixed(1)}%`;
    const cells = learned.map((rows) => {
      const runs = rows.map((c) => gap[c]);
      const mean = runs.reduce((a, b) => a + b, 0) / runs.length;
      const range = runs.length > 1 ? ` (${percent(Math.min(...runs))} to ${percent(Math.max(...runs))})` : '';
      return mean > best ? `**${percent(mean)}${range}**` : `${percent(mean)}${range}`;
    });
    cells.push(...[...manifest.heuristics, ilp].map((c) => percent(gap[c])));
    lines.push(`| ${r.config.model} (${split}) | ${r.config.fast_memory} | ${cells.join(' | ')} |`);
  }
  console.log(lines.join('\n'));
}

if (what === 'train') train();
else if (what === 'eval') { evaluate(); table(); }
else if (what === 'table') table();
else throw new Error(`unknown step '${what}' (train, eval or table)`);

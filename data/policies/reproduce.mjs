// Trains the shipped policies (`train`) and evaluates them (`eval`) as manifest.json says.
// `eval` writes results.json (every policy and baseline on every trace and capacity) and prints
// the README's results table: gap closed per trace and capacity, held-out traces first.
// Usage: node data/policies/reproduce.mjs train|eval|table [path/to/sysgym] [policy file ...]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const [what = 'table', binary, ...only] = process.argv.slice(2);
const sysgym = path.resolve(binary ?? path.join(root, 'build/native-release/sysgym'));
const manifest = JSON.parse(fs.readFileSync(path.join(here, 'manifest.json'), 'utf8'));
const run = (args) => execFileSync(sysgym, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

// The files of a policy: one per seed (the first seed's is `file` itself).
const filesOf = (p) => (p.seeds ?? [0]).map((seed, i) => ({
  seed, file: i === 0 ? p.file : p.file.replace(/\.json$/, `.seed${seed}.json`),
}));

function train() {
  for (const p of manifest.policies) {
    if (only.length > 0 && !only.includes(p.file)) continue;
    const all = [...(p.train ?? manifest.split.train), ...manifest.split.synthetic].join(',');
    for (const { seed, file } of filesOf(p)) {
      console.error(`training ${file}`);
      run(['train', 'memtier', '--vary', `trace=${all}`, ...p.train_args, '--seed', String(seed),
        '-o', `data/policies/${file}`]);
    }
  }
}

function evaluate() {
  const args = ['eval', 'memtier', '--vary', `trace=${[...manifest.split.held_out, ...manifest.split.train].join(',')}`,
    '--vary', `hbm_capacity=${manifest.capacities.join(',')}`, '--json'];
  for (const p of manifest.policies) {
    for (const { file } of filesOf(p)) args.push('--policy', `data/policies/${file}`);
  }
  fs.writeFileSync(path.join(here, 'results.json'), run(args));
}

const percent = (x) => `${(100 * x).toFixed(1)}%`;

// One row per trace and capacity: the learned policies (mean and range over their seeds), the
// heuristics and the oracles; bold where a learned policy's mean beats every heuristic.
function table() {
  const results = JSON.parse(fs.readFileSync(path.join(here, 'results.json'), 'utf8'));
  const learned = manifest.policies.map((p) => `learned:data/policies/${p.file}`);
  const seedFiles = Object.fromEntries(manifest.policies.map((p) => [`learned:data/policies/${p.file}`,
    filesOf(p).map(({ file }) => `learned:data/policies/${file}`)]));
  const columns = [...learned, ...manifest.heuristics, ...manifest.oracles, ...manifest.bounds];
  const names = [...manifest.policies.map((p) => p.label), ...manifest.heuristics, ...manifest.oracles,
    ...manifest.bounds.map((b) => `${b} (bound)`)];
  const lines = [`| trace | capacity | ${names.join(' | ')} |`, `|${'---|'.repeat(names.length + 2)}`];
  for (const r of results) {
    const trace = path.basename(r.config.trace);
    // The per-window oracle ignores migration: its bound is the windows' time alone.
    const gapOf = (row) => (manifest.bounds.includes(row.policy)
      ? (row.ddr_ms - row.estimated_ms) / (row.ddr_ms - row.hbm_ms) : row.gap_closed);
    const gap = Object.fromEntries(r.rows.map((row) => [row.policy, gapOf(row)]));
    const best = Math.max(...manifest.heuristics.map((h) => gap[h]));
    const split = manifest.split.held_out.includes(trace) ? 'held out' : 'train';
    const cells = columns.map((c) => {
      if (!learned.includes(c)) return percent(gap[c]);
      const runs = seedFiles[c].map((f) => gap[f]);
      const mean = runs.reduce((a, b) => a + b, 0) / runs.length;
      const range = runs.length > 1
        ? ` (${percent(Math.min(...runs))} to ${percent(Math.max(...runs))})` : '';
      const text = `${percent(mean)}${range}`;
      return mean > best + 5e-4 ? `**${text}**` : text;  // wins by at least 0.05 points
    });
    lines.push(`| ${trace} (${split}) | ${r.config.hbm_capacity} | ${cells.join(' | ')} |`);
  }
  console.log(lines.join('\n'));
}

if (what === 'train') train();
else if (what === 'eval') { evaluate(); table(); }
else if (what === 'table') table();
else throw new Error(`unknown step '${what}' (train, eval or table)`);

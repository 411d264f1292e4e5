// Trains the shipped policies (`train`) and evaluates them (`eval`) as manifest.json says.
// `eval` writes results.json (every policy and baseline on every trace and capacity) and prints
// the README's results table: gap closed per trace and capacity, held-out traces first.
// Usage: node data/policies/memtier/reproduce.mjs train|eval|table [path/to/sysgym] [policy file ...]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { seedFiles as filesOf } from '../seed_files.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const [what = 'table', binary, ...only] = process.argv.slice(2);
const sysgym = path.resolve(binary ?? path.join(root, 'build/native-release/sysgym'));
const manifest = JSON.parse(fs.readFileSync(path.join(here, 'manifest.json'), 'utf8'));
const run = (args) => execFileSync(sysgym, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

function train() {
  for (const p of manifest.policies) {
    if (only.length > 0 && !only.includes(p.file)) continue;
    const all = [...(p.train ?? manifest.split.train), ...manifest.split.synthetic].join(',');
    for (const { seed, file } of filesOf(p)) {
      console.error(`training ${file}`);
      run(['train', 'memtier', '--vary', `trace=${all}`, ...p.train_args, '--seed', String(seed),
        '-o', `data/policies/memtier/${file}`]);
    }
  }
}

function evaluate() {
  const args = ['eval', 'memtier', '--vary', `trace=${[...manifest.split.held_out, ...manifest.split.train].join(',')}`,
    '--vary', `hbm_capacity=${manifest.vary.hbm_capacity.join(',')}`, '--json'];
  for (const p of manifest.policies) {
    for (const { file } of filesOf(p)) args.push('--policy', `data/policies/memtier/${file}`);
  }
  fs.writeFileSync(path.join(here, 'results.json'), run(args));
}

const percent = (x) => `${(100 * x).toFixed(1)}%`;

const learned = manifest.policies.map((p) => `learned:data/policies/memtier/${p.file}`);
const seedFiles = Object.fromEntries(manifest.policies.map((p) => [`learned:data/policies/memtier/${p.file}`,
  filesOf(p).map(({ file }) => `learned:data/policies/memtier/${file}`)]));

// One evaluated trace and capacity: every column's gap closed, a learned policy's seeds and their
// mean, and the best heuristic's and the best oracle's gap closed.
function setting(r) {
  // The per-window oracle ignores migration: its bound is the windows' time alone.
  const gapOf = (row) => (manifest.bounds.includes(row.policy)
    ? (row.ddr_ms - row.estimated_ms) / (row.ddr_ms - row.hbm_ms) : row.gap_closed);
  const gap = Object.fromEntries(r.rows.map((row) => [row.policy, gapOf(row)]));
  const seeds = (c) => seedFiles[c].map((f) => gap[f]);
  const trace = path.basename(r.config.trace);
  return {
    trace, capacity: r.config.hbm_capacity, heldOut: manifest.split.held_out.includes(trace), gap, seeds,
    mean: (c) => seeds(c).reduce((a, b) => a + b, 0) / seedFiles[c].length,
    bestHeuristic: Math.max(...manifest.heuristics.map((h) => gap[h])),
    bestOracle: Math.max(...manifest.oracles.map((o) => gap[o])),
  };
}
const wins = (s, c) => s.mean(c) > s.bestHeuristic + 5e-4;  // by at least 0.05 points

// One row per trace and capacity: the learned policies (mean and range over their seeds), the
// heuristics and the oracles; bold where a learned policy's mean beats every heuristic.
function table() {
  const settings = JSON.parse(fs.readFileSync(path.join(here, 'results.json'), 'utf8')).map(setting);
  const columns = [...learned, ...manifest.heuristics, ...manifest.oracles, ...manifest.bounds];
  const names = [...manifest.policies.map((p) => p.label), ...manifest.heuristics, ...manifest.oracles,
    ...manifest.bounds.map((b) => `${b} (bound)`)];
  const lines = [`| trace | capacity | ${names.join(' | ')} |`, `|${'---|'.repeat(names.length + 2)}`];
  for (const s of settings) {
    const cells = columns.map((c) => {
      if (!learned.includes(c)) return percent(s.gap[c]);
      const runs = s.seeds(c);
      const range = runs.length > 1
        ? ` (${percent(Math.min(...runs))} to ${percent(Math.max(...runs))})` : '';
      const text = `${percent(s.mean(c))}${range}`;
      return wins(s, c) ? `**${text}**` : text;
    });
    lines.push(`| ${s.trace} (${s.heldOut ? 'held out' : 'train'}) | ${s.capacity} | ${cells.join(' | ')} |`);
  }
  console.log(lines.join('\n'));
  console.log(`\n${goals(settings.filter((s) => s.heldOut))}`);
}

// The goal in numbers, per learned policy (mean over its seeds) on the held-out settings: where it
// beats the best heuristic, by how much it falls short where it does not, and its share of the
// best oracle's gap closed (static, dynamic or lookahead, whichever closes most).
function goals(heldOut) {
  return learned.map((c, i) => {
    const short = heldOut.filter((s) => !wins(s, c))
      .map((s) => `${s.trace} at ${s.capacity} ${Math.max(0, 100 * (s.bestHeuristic - s.mean(c))).toFixed(1)} points`);
    const share = heldOut.reduce((sum, s) => sum + (s.bestOracle > 0 ? s.mean(c) / s.bestOracle : 0), 0) /
      heldOut.length;
    return `- ${manifest.policies[i].label}: beats the best heuristic in ${heldOut.length - short.length} of ` +
      `${heldOut.length} held-out settings${short.length > 0 ? ` (where it does not, it trails or ties by: ${short.join(', ')})` : ''}; ` +
      `${percent(share)} of the best oracle's gap closed on average (goal: 90 %).`;
  }).join('\n');
}

if (what === 'train') train();
else if (what === 'eval') { evaluate(); table(); }
else if (what === 'table') table();
else throw new Error(`unknown step '${what}' (train, eval or table)`);

// The held-out protocol's results pages: runs `sysgym eval ENV --split held-out --json` for a
// family, keeps its output as data/policies/FAMILY/held-out.json and writes the "Held-out
// protocol" section of docs/envs/FAMILY.md from it (between its two marker comments).
//   node data/policies/held_out.mjs run FAMILY... [--sysgym path/to/sysgym]
//   node data/policies/held_out.mjs render [FAMILY...]   (the sections again from the kept JSON)
//   node data/policies/held_out.mjs check    (each page's section is what its held-out.json gives)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
// Every folder here whose manifest declares a split.
const FAMILIES = fs.readdirSync(here, { withFileTypes: true })
  .filter((e) => e.isDirectory() && fs.existsSync(path.join(here, e.name, 'manifest.json')))
  .map((e) => e.name).sort();
const BEGIN = '<!-- held-out protocol: written by node data/policies/held_out.mjs from held-out.json -->';
const END = '<!-- end of the held-out protocol -->';

// The doctest marker above a page's command, where running it whole would cost the docs stage
// more than it checks (tests/cli/held_out_test.cpp checks the protocol against a recorded run).
const DOCTEST = {
  memtier: '<!-- doctest: skip: takes about 22 minutes (8 traces at 3 capacities, 18 policy files and baselines, 55 hindsight settings, 3 seeds); tests/cli/held_out_test.cpp checks the protocol against tensorplace\'s recorded run -->',
  looptune: '<!-- doctest: sub --split held-out => --split held-out --seeds 1 -->',
};

// What a family's metric is, said under its table.
const NOTES = {
  inline: 'The score is model mode\'s (text size and instructions as the env estimates them, against ' +
    'clang\'s decisions); what clang measures on the same programs is in the goal table (`sysgym inline bench`).',
  looptune: 'The speedup is the cost model\'s, of the best nest an episode reached (`best_speedup`); ' +
    'measured GFLOPS are in the table below (`sysgym looptune bench`).',
};

const resultsPath = (family) => path.join(here, family, 'held-out.json');
const pagePath = (family) => path.join(root, 'docs', 'envs', `${family}.md`);

const number = (x) => {
  const a = Math.abs(x);
  return a !== 0 && (a < 0.001 || a >= 1e5) ? x.toExponential(2) : x.toFixed(a >= 100 ? 1 : 3);
};
const withRange = (row, metric) => {
  const min = row[`${metric}_min`], max = row[`${metric}_max`];
  return min === undefined || min === max ? number(row[metric]) : `${number(row[metric])} (${number(min)} to ${number(max)})`;
};

// A hindsight row's kept candidate, `policy{"parameter":value,...}`, as `policy parameter=value ...`.
const setting = (tuned) => {
  const at = tuned.indexOf('{');
  const parameters = Object.entries(JSON.parse(tuned.slice(at))).map(([k, v]) => `${k}=${v}`);
  return [tuned.slice(0, at), ...parameters].join(' ');
};

// The keys that tell the tables apart, the split's key first.
function keysOf(result) {
  const first = result.tables[0].config;
  const differ = Object.keys(first).filter((k) => k !== result.key &&
    result.tables.some((t) => JSON.stringify(t.config[k]) !== JSON.stringify(first[k])));
  return [result.key, ...differ];
}

export function section(family, result) {
  const { metric } = result;
  const keys = keysOf(result);
  const learned = result.summary.map((s) => s.policy);
  const m = result.machine;
  const oracles = result.tables.some((t) => t.best_oracle !== null);
  const h = result.hindsight;
  const lines = [
    BEGIN,
    '## Held-out protocol',
    '',
    `Every shipped policy beside every baseline, search and oracle on the ${result.split} split, ` +
    `${result.seeds} episode seeds each (a table pools its runs: seeds, a policy's training seeds, ` +
    `a problem set's problems): the ${metric} (higher is better), mean and, where the runs differ, ` +
    'min to max. "Best other" is the best policy that neither learns nor knows the future; ' +
    'bold where a learned policy beats it. Choosing it per table takes each table\'s result, so the summary ' +
    'also sets each learned policy against the best single other: the one such policy with the best mean ' +
    'over the tables it plays, chosen once for them all. Regenerate with the command below (data/policies/' +
    `held_out.mjs keeps its output in data/policies/${family}/held-out.json and writes this section).` +
    (h ? ` "${h.label}" is, per run, the best of ${h.candidates} parameter settings of the heuristics ` +
      '(the manifest\'s `hindsight` grid), chosen with the run\'s result known: what tuning their thresholds ' +
      'alone could reach, and the setting it kept.' : ''),
    '',
    ...(DOCTEST[family] ? [DOCTEST[family]] : []),
    '```sh',
    `sysgym eval ${family} --split held-out`,
    '```',
    '',
    `Run on ${result.date}: ${m.cpu}, ${m.cores} logical cores, ${m.system}.`,
    '',
    `| ${keys.join(' | ')} | ${learned.map((l) => l.slice('learned:'.length)).join(' | ')} | best other |` +
    `${h ? ` ${h.label} |` : ''}${oracles ? ' best oracle |' : ''}`,
    `|${'---|'.repeat(keys.length + learned.length + (oracles ? 2 : 1) + (h ? 1 : 0))}`,
  ];
  for (const t of result.tables) {
    const byName = Object.fromEntries(t.rows.map((r) => [r.policy, r]));
    const best = byName[t.best_other];
    const oracle = t.best_oracle === null ? null : byName[t.best_oracle];
    const cells = learned.map((l) => {
      if (!byName[l]) return '-';
      const text = withRange(byName[l], metric);
      return byName[l][metric] > best[metric] ? `**${text}**` : text;
    });
    const tuned = h && byName[h.label];
    lines.push(`| ${keys.map((k) => (typeof t.config[k] === 'string' ? t.config[k] : JSON.stringify(t.config[k]))).join(' | ')} | ` +
      `${cells.join(' | ')} | ${best.policy} ${withRange(best, metric)} |` +
      `${!h ? '' : tuned ? ` ${number(tuned[metric])} (${setting(tuned.tuned)}) |` : ' - |'}` +
      `${!oracles ? '' : oracle ? ` ${oracle.policy} ${number(oracle[metric])} |` : ' - |'}`);
  }
  lines.push('');
  if (NOTES[family]) lines.push(NOTES[family], '');
  for (const s of result.summary) {
    const behind = s.worst_shortfall > 0 ? `; furthest behind at ${s.worst_setting}, by ${number(s.worst_shortfall)}` : '';
    const way = s.hindsight_share === undefined ? ''
      : `; goes ${number(s.hindsight_share)} of the way from ${h.from} to ${h.label}`;
    const single = s.best_single_other;
    const against = !single ? '' : `; against the best single other, ${single.policy} (mean ${number(single.mean)}), ` +
      `within 0.01 in ${single.within_0_01} of ${s.tables}` +
      (single.worst_shortfall > 0 ? `, furthest behind at ${single.worst_setting}, by ${number(single.worst_shortfall)}` : '');
    lines.push(`- ${s.policy.slice('learned:'.length)}: mean ${number(s.mean)} against the best other's ` +
      `${number(s.best_other_mean)}; beats it in ${s.beats_best_other} of ${s.tables} tables and is within 0.01 ` +
      `of it in ${s.within_0_01_of_best_other}${behind}; worst run ${number(s.worst_run)}${way}${against}.`);
  }
  lines.push(END);
  return lines.join('\n');
}

function write(family) {
  const page = fs.readFileSync(pagePath(family), 'utf8');
  const begin = page.indexOf(BEGIN), end = page.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${pagePath(family)} has no held-out protocol markers`);
  const text = section(family, JSON.parse(fs.readFileSync(resultsPath(family), 'utf8')));
  return { page, updated: page.slice(0, begin) + text + page.slice(end + END.length) };
}

const [what, ...rest] = process.argv.slice(2);
if (what === 'run') {
  const at = rest.indexOf('--sysgym');
  const sysgym = path.resolve(at >= 0 ? rest[at + 1] : path.join(root, 'build/native-release/sysgym'));
  const families = rest.filter((a, i) => a !== '--sysgym' && rest[i - 1] !== '--sysgym');
  for (const family of families.length > 0 ? families : FAMILIES) {
    if (!FAMILIES.includes(family)) throw new Error(`unknown family '${family}' (${FAMILIES.join(', ')})`);
    console.error(`${family}: sysgym eval ${family} --split held-out`);
    const json = execFileSync(sysgym, ['eval', family, '--split', 'held-out', '--json'],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 28 });
    fs.writeFileSync(resultsPath(family), json.endsWith('\n') ? json : `${json}\n`);
    fs.writeFileSync(pagePath(family), write(family).updated);
  }
} else if (what === 'render') {  // the sections again from the kept JSON (after editing this script)
  for (const family of rest.length > 0 ? rest : FAMILIES) {
    if (fs.existsSync(resultsPath(family))) fs.writeFileSync(pagePath(family), write(family).updated);
  }
} else if (what === 'check') {
  const stale = FAMILIES.filter((f) => { const { page, updated } = write(f); return page !== updated; });
  if (stale.length > 0) {
    console.error(`the held-out section of ${stale.map((f) => `docs/envs/${f}.md`).join(', ')} is not what ` +
      'held-out.json gives: node data/policies/held_out.mjs run FAMILY (or rewrite the page from the JSON)');
    process.exit(1);
  }
} else {
  console.error('usage: node data/policies/held_out.mjs run [FAMILY...] [--sysgym PATH] | check');
  process.exit(2);
}

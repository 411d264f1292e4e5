// The profiler's goal benchmark (issue: profile) and the breakdown the README reports, both builds
// in one run:
//   node wasm/bench/profile_bench.mjs [REPEATS] [--scale X] [--only ENV] [--json FILE]
// For each family's `train` with each agent it can train (DQN needs Discrete actions, PPO
// MultiBinary or Discrete(2)) at two network sizes, `sysgym profile --json --runs 2 -- train ...`
// through the native tool and through the npm bin (WebAssembly), REPEATS times each (default 3),
// alternating: the corrected total's error and the uncorrected overhead against the unprofiled
// run (min / median of their sizes over the repeats; goals: corrected within 5 %, uncorrected
// under 10 %), and the share of the wall time per category (median over the repeats).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { CASES, CATEGORIES, NETWORKS, profileRun, scaledSteps } from './profile_cases.mjs';

const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args.splice(args.indexOf(name), 2)[1] : undefined);
const jsonFile = option('--json');
// --scale multiplies every case's steps (1: about two seconds of native training per run).
const scale = Number(option('--scale') ?? 1);
const only = option('--only');
const repeats = Number(args[0] ?? 3);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-profile-bench-'));

function profile(side, c, hidden) {
  return profileRun(side, c, hidden, { steps: scaledSteps(c, scale), runs: 2, output: path.join(tmp, `${side}.json`) });
}

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const pct = (x) => `${(100 * x).toFixed(1)}`;
const results = [];
for (const c of CASES.filter((x) => !only || x.env === only)) {
  for (const hidden of NETWORKS) {
    const reports = { native: [], wasm: [] };
    for (let i = 0; i < repeats; ++i) {
      reports.native.push(profile('native', c, hidden));
      reports.wasm.push(profile('wasm', c, hidden));
    }
    for (const side of ['native', 'wasm']) {
      const rs = reports[side];
      const corrected = rs.map((r) => Math.abs(r.corrected_error));
      const uncorrected = rs.map((r) => r.uncorrected_overhead);
      const shares = {};
      for (const k of CATEGORIES) shares[k] = median(rs.map((r) => (r.categories_ms[k] ?? 0) / r.corrected_wall_ms));
      shares.rest = median(rs.map((r) => r.unattributed_ms / r.corrected_wall_ms));
      results.push({
        env: c.env, agent: c.agent, hidden, side, repeats,
        wall_ms: median(rs.map((r) => r.unprofiled_ms)),
        corrected_error: { min: Math.min(...corrected), median: median(corrected) },
        uncorrected_overhead: { min: Math.min(...uncorrected), median: median(uncorrected) },
        scopes: median(rs.map((r) => r.scopes)),
        shares,
      });
    }
  }
}

console.log(`sysgym profile -- train ..., ${repeats} repeats per row (each: fastest of 2 profiled and 2 unprofiled runs)`);
console.log('env            agent net      side    unprofiled s  |corrected err| % min/med  uncorrected % min/med   sim  infer  learn   data  frame  bound   rest');
for (const r of results) {
  const s = r.shares;
  console.log(`${r.env.padEnd(14)} ${r.agent.padEnd(5)} ${String(r.hidden[0]).padEnd(8)} ${r.side.padEnd(7)} ${(r.wall_ms / 1000).toFixed(2).padStart(12)}  ` +
    `${`${pct(r.corrected_error.min)} / ${pct(r.corrected_error.median)}`.padStart(24)}  ${`${pct(r.uncorrected_overhead.min)} / ${pct(r.uncorrected_overhead.median)}`.padStart(20)}` +
    ` ${[...CATEGORIES, 'rest'].map((k) => pct(s[k]).padStart(6)).join(' ')}`);
}
const worst = (side, key) => Math.max(...results.filter((r) => r.side === side).map((r) => r[key].median));
for (const side of ['native', 'wasm']) {
  console.log(`${side}: worst median |corrected error| ${pct(worst(side, 'corrected_error'))} % (goal <= 5), worst median uncorrected overhead ${pct(worst(side, 'uncorrected_overhead'))} % (goal < 10)`);
}
if (jsonFile) fs.writeFileSync(jsonFile, `${JSON.stringify(results, null, 1)}\n`);
fs.rmSync(tmp, { recursive: true, force: true });

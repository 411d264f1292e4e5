// Writes the profiles the playground shows beside a visitor's own run: for every case of the
// profiler's benchmark (wasm/bench/profile_cases.mjs) at both network sizes, the report of
// `sysgym profile --json --runs 3 -- train ...` from the native tool and from the npm bin under
// Node, on this machine, into ENV-AGENT-WIDTH.json.
// Usage: node data/profiles/regenerate.mjs [--scale X] [ENV ...]   (after the native and wasm
// builds; ENV: only these envs' files)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { CASES, NETWORKS, profileRun, scaledSteps } from '../../wasm/bench/profile_cases.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const scaleAt = args.indexOf('--scale');
// Half the benchmark's steps: a second or less natively, a few seconds in a browser.
const scale = scaleAt < 0 ? 0.5 : Number(args.splice(scaleAt, 2)[1]);
const only = new Set(args);
const RUNS = 3;
const KEPT_CALLS = 12; // the JS calls into the module with the most time; the rest are small
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-profiles-'));
const cpu = os.cpus();
const machine = `${cpu[0].model.trim()}, ${cpu.length} cores, Node ${process.versions.node}`;

// A report as shipped: the policy's output path (a temporary file) is not part of the run.
function shipped(report) {
  const out = { ...report, command: report.command.map((a) => (a.startsWith(tmp) ? 'policy.json' : a)) };
  if (out.crossings) out.crossings = { ...out.crossings, calls: out.crossings.calls.slice(0, KEPT_CALLS) };
  return out;
}

for (const c of CASES.filter((x) => only.size === 0 || only.has(x.env))) {
  for (const hidden of NETWORKS) {
    const steps = scaledSteps(c, scale);
    const output = path.join(tmp, 'policy.json');
    const reports = {};
    for (const [side, name] of [['native', 'native'], ['wasm', 'node']]) {
      reports[name] = shipped(profileRun(side, c, hidden, { steps, runs: RUNS, output }));
    }
    const run = { env: c.env, settings: c.settings, agent: c.agent, hidden, steps, seed: 0 };
    const file = path.join(here, `${c.env.replace(/-v\d+$/, '')}-${c.agent}-${hidden[0]}.json`);
    const body = { kind: 'sysgym-profile-runs', schema_version: 1, run, machine, reports };
    fs.writeFileSync(file, `${JSON.stringify(body, null, 1)}\n`);
    const wall = (side) => `${side} ${(reports[side].corrected_wall_ms / 1000).toFixed(2)} s`;
    console.log(`${path.basename(file)}: ${wall('native')}, ${wall('node')}`);
  }
}
fs.rmSync(tmp, { recursive: true, force: true });

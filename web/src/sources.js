// Where traces, policies and episodes come from: the shipped catalogue (catalogue.json, written
// by build.mjs) and files a visitor drops or picks. Every problem names its file.

export async function loadCatalogue(base = '') {
  const response = await fetch(`${base}catalogue.json`);
  if (!response.ok) throw new Error(`catalogue.json: HTTP ${response.status}`);
  return response.json();
}

// A shipped trace is registered under the name the native tool gives it (the repository's
// paths), so that episodes recorded natively replay here and exported ones replay natively.
export function shippedTrace(entry, base = '') {
  if (entry.synthetic) return { name: entry.trace, source: null };
  return { name: entry.trace, source: { urls: entry.files.map((f) => `${base}${f}`) } };
}

// A trace name's files without their folders: "a/x.ddr.bin,b/x.hbm.bin" -> "x.ddr.bin,x.hbm.bin".
export function fileNames(trace) {
  return String(trace).split(',').map((p) => p.trim().split('/').pop()).join(',');
}

// The shipped trace that a recorded episode's "trace" names: the same pair of file names,
// wherever the recording's paths pointed.
export function findShipped(catalogue, trace) {
  return catalogue.traces.find((t) => t.trace === trace || fileNames(t.trace) === fileNames(trace));
}

// Env keys a learned policy fixes: its network reads observations and acts in this shape.
export class FileProblem extends Error {
  constructor(file, problem) {
    super(`${file}: ${problem}`);
    this.name = 'FileProblem';
  }
}

// The core's nesting limit for JSON from outside (base/json_text.hpp): the browser's JSON.parse
// would take a 100,000-deep file and the page then looked for a config that is not there.
const MAX_JSON_DEPTH = 64;

function jsonDepth(text) {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) deepest = Math.max(deepest, (depth += 1));
    else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return deepest;
}

async function readJson(file) {
  const text = await file.text();
  if (text.trim() === '') throw new FileProblem(file.name, 'the file is empty');
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw new FileProblem(file.name, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new FileProblem(file.name, `not valid JSON (${e.message})`);
  }
}

// Sorts picked files into recorded episodes, policy files, a raw trace pair (names containing
// "ddr" and "hbm") or one preprocessed pair. Returns {episodes, policies, pair, prepared,
// problems}: problems are FileProblems for files that cannot be used.
export async function classifyFiles(files) {
  const out = { episodes: [], policies: [], pair: null, prepared: null, problems: [] };
  const traces = { ddr: [], hbm: [], other: [] };
  for (const file of files) {
    if (file.size === 0) {
      out.problems.push(new FileProblem(file.name, 'the file is empty'));
      continue;
    }
    if (/\.json$/i.test(file.name)) {
      try {
        const json = await readJson(file);
        if (json?.kind === 'sysgym-episode') out.episodes.push({ name: file.name, json });
        else if (json?.kind === 'sysgym-policy') out.policies.push({ name: file.name, json });
        else out.problems.push(new FileProblem(file.name, `neither a recorded episode nor a policy file ("kind" is ${JSON.stringify(json?.kind ?? null)})`));
      } catch (e) {
        out.problems.push(e);
      }
      continue;
    }
    const role = /ddr/i.test(file.name) ? 'ddr' : /hbm/i.test(file.name) ? 'hbm' : 'other';
    traces[role].push(file);
  }
  if (traces.ddr.length === 1 && traces.hbm.length === 1) {
    out.pair = { ddr: traces.ddr[0], hbm: traces.hbm[0] };
  } else if (traces.ddr.length + traces.hbm.length > 0) {
    const named = [...traces.ddr, ...traces.hbm].map((f) => f.name).join(', ');
    out.problems.push(new FileProblem(named, 'a trace pair is one file with "ddr" and one with "hbm" in its name, dropped together'));
  }
  if (traces.other.length === 1 && !out.pair) out.prepared = traces.other[0];
  else if (traces.other.length > 0) {
    for (const f of traces.other) out.problems.push(new FileProblem(f.name, 'not a trace pair member (no "ddr" or "hbm" in its name) nor a single preprocessed pair'));
  }
  return out;
}

// The trace request for the worker from dropped trace files.
export async function droppedTrace({ pair, prepared }) {
  if (pair) {
    const [ddr, hbm] = await Promise.all([pair.ddr.arrayBuffer(), pair.hbm.arrayBuffer()]);
    const name = `${pair.ddr.name},${pair.hbm.name}`;
    return { name, label: `${pair.ddr.name} + ${pair.hbm.name}`, files: [pair.ddr.name, pair.hbm.name],
      source: { ddr: new Uint8Array(ddr), hbm: new Uint8Array(hbm) }, transfer: [ddr, hbm] };
  }
  const data = await prepared.arrayBuffer();
  return { name: prepared.name, label: prepared.name, files: [prepared.name], source: { prepared: new Uint8Array(data) }, transfer: [data] };
}

// Where data, policies and episodes come from: the shipped catalogue (catalogue.json, written by
// build.mjs) and files a visitor drops or picks. Every problem names its file.

export async function loadCatalogue(base = '') {
  const response = await fetch(`${base}catalogue.json`);
  if (!response.ok) throw new Error(`catalogue.json: HTTP ${response.status}`);
  return response.json();
}

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

// `sysgym profile` output: a report (--json, which has no kind) or a Chrome trace.
const isProfile = (json) => Array.isArray(json?.traceEvents) || (json?.categories_ms !== undefined && Array.isArray(json?.ops));

// Sorts picked files into recorded episodes, policy files, profiles (reports and Chrome traces of
// `sysgym profile`) and data files (everything not JSON, and JSON of another sysgym kind, for the
// env's view to make sense of). Returns {episodes, policies, profiles, data, problems}: problems
// are FileProblems for files that cannot be used.
export async function classifyFiles(files) {
  const out = { episodes: [], policies: [], profiles: [], data: [], problems: [] };
  for (const file of files) {
    if (file.size === 0) {
      out.problems.push(new FileProblem(file.name, 'the file is empty'));
      continue;
    }
    if (!/\.json$/i.test(file.name)) {
      out.data.push(file);
      continue;
    }
    try {
      const json = await readJson(file);
      if (json?.kind === 'sysgym-episode') out.episodes.push({ name: file.name, json });
      else if (json?.kind === 'sysgym-policy') out.policies.push({ name: file.name, json });
      else if (isProfile(json)) out.profiles.push({ name: file.name, json });
      // A family's own file (inline: a program from `sysgym inline extract`): its view's data.
      else if (String(json?.kind).startsWith('sysgym-')) out.data.push(file);
      else out.problems.push(new FileProblem(file.name, `neither a recorded episode, a policy file, a profile nor a sysgym data file ("kind" is ${JSON.stringify(json?.kind ?? null)})`));
    } catch (e) {
      out.problems.push(e);
    }
  }
  return out;
}

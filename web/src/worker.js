// The simulation thread: holds the WebAssembly core and its traces, steps episodes and streams
// their windows to the page in batches, so the page stays responsive on large traces.
//
// Requests carry an id; the worker answers with messages of the same id:
//   {type: 'event', id, event}  while the request runs (episode meta, frame batches, table rows)
//   {type: 'done', id, result}  at the end
//   {type: 'error', id, kind, message}
import { load } from 'sysgym';

const sysgym = load();
const registered = new Set();
const episodes = new Map(); // request id -> Episode, kept for export until dropped
const cancelled = new Set();

// A batch of windows is posted at most every BATCH_MS of stepping: large enough that posting
// costs little, small enough that the page sees progress several times a second.
const BATCH_MS = 40;

function yieldToMessages() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

// Registers a trace under `name` unless it is known. `source`: {urls: [ddr, hbm]} for shipped
// traces, {ddr, hbm} bytes of dropped raw traces, or {prepared} bytes of a preprocessed pair.
async function addTrace(core, { name, source, files = [] }) {
  if (registered.has(name) || name.startsWith('synth:')) return { name, known: true };
  try {
    if (source.urls) {
      const [ddr, hbm] = await Promise.all(source.urls.map(fetchBytes));
      core.memtier.addTraces(name, ddr, hbm);
    } else if (source.prepared) {
      core.memtier.addPrepared(name, source.prepared);
    } else {
      core.memtier.addTraces(name, source.ddr, source.hbm);
    }
  } catch (e) {
    // Name the files: the core's message names the trace only by its role.
    e.message = `${files.length ? files.join(' + ') : name}: ${e.message}`;
    throw e;
  }
  registered.add(name);
  return { name, known: false };
}

// The episode's meta for the page: the generic fields and the env's frame context (memtier: bins,
// start, windows).
function describe(episode) {
  return {
    ...episode.frameContext,
    env: episode.env,
    config: episode.config,
    facts: episode.facts,
    policy: episode.policy,
    policyParameters: episode.policyParameters,
    isReplay: episode.isReplay,
  };
}

async function play(id, episode, post) {
  episodes.set(id, episode);
  post({ kind: 'meta', meta: describe(episode) });
  while (!episode.done) {
    const frames = [];
    const until = performance.now() + BATCH_MS;
    do frames.push(episode.step());
    while (!episode.done && performance.now() < until);
    post({ kind: 'frames', frames });
    await yieldToMessages();
    if (cancelled.has(id)) return { cancelled: true };
  }
  return { summary: episode.summary() };
}

// A learned policy runs on the env settings its network was trained for (the keys its env's
// schema marks fixed_by_policy, from its file); every other policy on the config as given.
function forPolicy(core, config, policy, policyConfig) {
  const trained = policy === 'learned' ? policyConfig?.env : null;
  if (!trained?.config) return config;
  const out = { ...config };
  for (const key of core.configSchema(trained.id)) {
    if (key.fixed_by_policy && key.name in trained.config) out[key.name] = trained.config[key.name];
  }
  return out;
}

// Every policy on one env and config, one row per policy as it finishes.
async function compare(core, { env, config, policies, seed }, id, post) {
  const rows = [];
  for (const p of policies) {
    if (cancelled.has(id)) return { cancelled: true, rows };
    let row;
    try {
      const policyConfig = p.policyConfig ?? {};
      const { summary } = core.runEpisode({ env, config: forPolicy(core, config, p.policy, policyConfig), policy: p.policy, policyConfig, seed });
      row = { label: p.label, policy: p.policy, oracle: Boolean(p.oracle), summary };
    } catch (e) {
      row = { label: p.label, policy: p.policy, oracle: Boolean(p.oracle), error: e.message };
    }
    rows.push(row);
    post({ kind: 'row', row });
    await yieldToMessages();
  }
  return { rows };
}

async function handle(core, request, post) {
  switch (request.type) {
    case 'policies':
      return core.policies();
    case 'schema':
      return core.configSchema(request.env);
    case 'trace':
      return addTrace(core, request);
    case 'run': {
      const { config, policy, policyConfig } = request.args;
      return play(request.id, core.episode({ ...request.args, config: forPolicy(core, config, policy, policyConfig) }), post);
    }
    case 'replay':
      return play(request.id, core.replay(request.episode), post);
    case 'compare':
      return compare(core, request.args, request.id, post);
    case 'export': {
      const episode = episodes.get(request.of);
      if (!episode) throw new Error('no episode to export: run one first');
      return JSON.stringify(episode.toJSON());
    }
    case 'drop':
      episodes.get(request.of)?.dispose();
      episodes.delete(request.of);
      return null;
    default:
      throw new Error(`unknown request ${request.type}`);
  }
}

self.onmessage = async ({ data: request }) => {
  if (request.type === 'cancel') {
    cancelled.add(request.of);
    return;
  }
  const post = (event) => self.postMessage({ type: 'event', id: request.id, event });
  try {
    const result = await handle(await sysgym, request, post);
    self.postMessage({ type: 'done', id: request.id, result });
  } catch (e) {
    self.postMessage({ type: 'error', id: request.id, kind: e.name ?? 'Error', message: e.message ?? String(e) });
  } finally {
    cancelled.delete(request.id);
  }
};

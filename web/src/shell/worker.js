// The simulation thread: holds the WebAssembly core and the data added to it, steps episodes of
// any env and streams their steps to the page in batches, so the page stays responsive on large
// inputs. It knows no family: a family's view adds data through 'data' and 'extra' requests.
//
// Requests carry an id; the worker answers with messages of the same id:
//   {type: 'event', id, event}  while the request runs (episode meta, frame batches, table rows,
//                               training progress)
//   {type: 'done', id, result}  at the end
//   {type: 'error', id, kind, message}
import { load } from 'sysgym';

import { profileTraining } from './training_profile.js';

const sysgym = load();
const episodes = new Map(); // request id -> Episode, kept for export until dropped
const cancelled = new Set();

// A batch of windows is posted at most every BATCH_MS of stepping: large enough that posting
// costs little, small enough that the page sees progress several times a second.
const BATCH_MS = 40;

function yieldToMessages() {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// A family's extra (sysgym.memtier.addTraces, ...): the shell passes the call on without knowing
// the family, so a family's view loads its data without a line here.
function callExtra(core, { family, method, args = [] }) {
  const extras = core[family];
  if (typeof extras?.[method] !== 'function') throw new Error(`no extra ${family}.${method} in the package`);
  return extras[method](...args);
}

// The episode's meta for the page: the generic fields and the env's frame context (memtier: bins,
// start, windows), which its view reads.
function describe(episode) {
  return {
    env: episode.env,
    context: episode.frameContext,
    config: episode.config,
    facts: episode.facts,
    primaryMetric: episode.primaryMetric,
    frameLayout: episode.frameLayout,
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

// Every policy on one env and config, one row per policy as it finishes, after how the env
// compares episodes (its ranking and report columns, from one env made on the config).
async function compare(core, { env, config, policies, seed }, id, post) {
  const probe = core.make(env, config);
  const { primaryMetric, ranking, reportColumns } = probe;
  probe.dispose();
  post({ kind: 'comparing', comparing: { primaryMetric, ranking, reportColumns } });
  const rows = [];
  for (const p of policies) {
    if (cancelled.has(id)) return { cancelled: true, rows };
    let row;
    try {
      const policyConfig = p.policyConfig ?? {};
      const { summary, returns } = core.runEpisode({ env, config, policy: p.policy, policyConfig, seed });
      row = { label: p.label, policy: p.policy, value: p.value, oracle: Boolean(p.oracle), summary, returns };
    } catch (e) {
      row = { label: p.label, policy: p.policy, value: p.value, oracle: Boolean(p.oracle), error: e.message };
    }
    rows.push(row);
    post({ kind: 'row', row });
    await yieldToMessages();
  }
  return { rows };
}

async function handle(core, request, post) {
  switch (request.type) {
    case 'envs':
      return core.envIds();
    case 'policies':
      return core.policies(request.env);
    case 'schema':
      return core.configSchema(request.env);
    case 'agents':
      // The agents that train on the env (its example config, after its training hook).
      return JSON.parse(core.describeReport(request.env, '', [], true)).agents;
    case 'data':
      for (const { name, bytes } of request.files) core.data.add(name, bytes);
      return null;
    case 'extra':
      return callExtra(core, request);
    case 'run':
      // A learned policy's file brings its env settings: the core lays them under the config.
      return play(request.id, core.episode(request.args), post);
    case 'replay':
      return play(request.id, core.replay(request.episode), post);
    case 'compare':
      return compare(core, request.args, request.id, post);
    case 'profile':
      return profileTraining(core, request.run, { post, cancelled: () => cancelled.has(request.id), pause: yieldToMessages });
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

// The playground page: lists every registered env, and wires the env's view (its fields, figures
// and charts, from envs/), the files a visitor drops, the simulation worker, the playback
// controls and the comparison together. Data flows one way: worker frames -> EpisodeRun ->
// Playback position -> the view's figures and charts.
import { WorkerClient } from './shell/client.js';
import { classifyFiles, loadCatalogue } from './shell/files.js';
import { fillComparison } from './shell/comparison.js';
import { comparisonCharts } from './shell/comparison_charts.js';
import { Playback } from './shell/playback.js';
import { ProfilePanel } from './shell/profile_panel.js';
import { EpisodeRun } from './shell/episode_run.js';
import { groups, option } from './shell/dom.js';
import { viewFor } from './envs/index.js';

const $ = (id) => document.getElementById(id);
const form = $('config-form');
const client = new WorkerClient();
const CHART_INTERVAL_MS = 150; // charts redraw at most this often while playing
// The env a first visit shows: the first family, with its shipped traces and its own view.
const FIRST_ENV = 'memtier-v0';

const state = {
  catalogue: null,
  env: null, // the env id shown
  view: null, // its view (envs/)
  generic: false, // the generic view asked for (#view=generic), whatever the env's own view
  fields: null, // the view's form
  figures: () => {},
  charts: [],
  policies: [],
  learned: new Map(), // policy option value -> {label, file}
  run: null,
  request: null, // the worker request of the episode shown
  chartsDrawn: 0,
  profile: null, // the "where training time goes" panel
};
const playback = new Playback(render);
// The episode shown, for the console and the browser tests: sysgymPlayground.run.frames[i].
window.sysgymPlayground = { get run() { return state.run; }, get cursor() { return playback.cursor; } };

function showError(message) {
  const p = document.createElement('p');
  p.textContent = message;
  $('errors').append(p);
}

function clearErrors() {
  $('errors').replaceChildren();
}

function setStatus(text) {
  $('status').textContent = text;
}

// ---- policies ----

function fillPolicies() {
  const builtin = state.policies.filter((p) => !p.needs_parameters);
  const plain = builtin.filter((p) => !p.oracle).map((p) => option(`builtin:${p.name}`, p.name));
  const oracles = builtin.filter((p) => p.oracle).map((p) => option(`builtin:${p.name}`, `${p.name} (reads the future)`));
  const learned = [...state.learned].filter(([, l]) => l.file.env?.id === state.env).map(([value, l]) => option(value, l.label));
  const select = $('policy');
  const current = select.value;
  select.replaceChildren(...groups(['Baselines and heuristics', plain], ['Oracles', oracles], ['Learned', learned]));
  const has = (value) => value && [...select.options].some((o) => o.value === value);
  // The view's default is one where something visibly happens on its default data.
  const preferred = state.view.defaultPolicy && `builtin:${state.view.defaultPolicy}`;
  if (has(current)) select.value = current;
  else if (has(preferred)) select.value = preferred;
  describePolicy();
}

function selectedPolicy() {
  const value = $('policy').value;
  if (value.startsWith('builtin:')) {
    const name = value.slice('builtin:'.length);
    return { policy: name, policyConfig: {}, file: null, label: name };
  }
  const l = state.learned.get(value);
  return { policy: 'learned', policyConfig: l.file, file: l.file, label: l.label };
}

const AGENTS = { dqn: 'DQN', ppo: 'PPO', imitation: 'imitation-learning' };
const settingText = (value) => (typeof value === 'object' ? JSON.stringify(value) : String(value));

// A learned policy in words: what trained it and on what, and which of its settings this page
// applies (the keys its network depends on, locked in the form); the others stay the form's.
function learnedPolicyText(file) {
  const agent = AGENTS[file.agent] ?? file.agent;
  const steps = file.training?.env_steps;
  // What varied over its training envs (the data and settings it saw), a file path as its name.
  const envs = file.training?.envs ?? [];
  const shortText = (v) => settingText(v).split(',')[0].split('/').pop().replace(/\.ddr\.\w+$/, '');
  const varied = Object.keys(envs[0] ?? {}).map((key) => [key, [...new Set(envs.map((e) => shortText(e[key])))]])
    .filter(([, values]) => values.length > 1).map(([key, values]) => `${key} ${values.join(', ')}`);
  const applied = state.fields.fixedKeys(file);
  return `${/^[aeiou]/i.test(agent) ? 'An' : 'A'} ${agent} policy trained natively${steps ? ` for ${Number(steps).toLocaleString('en-US')} steps` : ''}` +
    `${varied.length > 0 ? ` over ${varied.join('; ')}` : ''}. ` +
    (applied.length > 0 ? `Here it sets ${applied.join(', ')} (its network needs them, or they say what it was trained for); the other fields are yours.`
      : 'It sets none of the fields: the episode runs on the form as it stands.');
}

function describePolicy() {
  const p = selectedPolicy();
  const info = state.policies.find((x) => x.name === p.policy);
  $('policy-about').textContent = p.file ? learnedPolicyText(p.file) : info?.summary ?? '';
  state.fields.lockToPolicy(p.file);
}

// The status line before a run: what Run will do with the form as it stands (any env, a shared
// link's settings or the defaults).
function readyStatus() {
  const config = state.fields.config();
  return `Ready: ${selectedPolicy().label} on ${state.view.caption(config)}. Run it, or change the data, settings and policy.`;
}

async function loadShippedPolicies() {
  for (const entry of state.catalogue.policies) {
    const response = await fetch(entry.file);
    if (!response.ok) {
      showError(`${entry.file}: HTTP ${response.status}`);
      continue;
    }
    state.learned.set(`shipped:${entry.id}`, { label: entry.label, file: await response.json() });
  }
}

// ---- the env shown ----

// Shows env `id` through its view: title, fields, figures, charts, policies.
async function showEnv(id, { generic = false } = {}) {
  stopCurrent();
  playback.detach();
  state.run = null;
  state.env = id;
  state.generic = generic;
  state.view = viewFor(id, { generic });
  const [schema, policies] = await Promise.all([client.request('schema', { env: id }), client.request('policies', { env: id })]);
  const view = state.view;
  $('env-title').textContent = view.title;
  $('env-intro').textContent = view.intro;
  $('drop-what').textContent = view.dropHint;
  $('step-name').textContent = view.stepName[0].toUpperCase() + view.stepName.slice(1);
  state.fields = view.form({ data: $('env-data'), fields: $('env-fields') }, schema, { client, catalogue: state.catalogue });
  $('figures').replaceChildren($('figures').firstElementChild); // the step counter stays
  state.figures = view.figures($('figures'));
  $('views').replaceChildren();
  state.charts = view.charts($('views'), { client });
  state.policies = policies;
  fillPolicies();
  state.comparisonCharts?.clear();
  $('comparison').tHead.replaceChildren();
  $('comparison').tBodies[0].replaceChildren();
  setControlsEnabled(false);
  await state.profile.setEnv(id);
  if (document.body.dataset.ready === 'true') setStatus(readyStatus());
}

// The config of a profiled training run: a shipped run's `settings` (the run's config is those
// keys alone, as natively; the form is set to them to load their data, then given back as the
// visitor left it, so the next episode and a shared link are theirs), or the form's config.
async function profiledConfig(settings) {
  if (!settings) {
    if (formProblems()) throw new Error('the episode form has problems: see the fields marked');
    return state.fields.prepare();
  }
  const pairs = new URLSearchParams(settings.map((s) => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)]));
  const saved = new URLSearchParams();
  state.fields.toParams(saved);
  for (const key of pairs.keys()) if (!saved.has(key)) saved.set(key, '');
  try {
    state.fields.fromParams(pairs);
    if (formProblems()) throw new Error(`the profiled run's settings (${settings.join(' ')}) do not fit the form`);
    const config = await state.fields.prepare();
    return Object.fromEntries(Object.entries(config).filter(([key]) => pairs.has(key)));
  } finally {
    state.fields.fromParams(saved);
    formProblems();
  }
}

// ---- episodes ----

function stopCurrent() {
  if (state.request) {
    client.cancel(state.request.id);
    client.request('drop', { of: state.request.id });
  }
  state.request = null;
}

// Starts a worker episode request (run or replay) and shows it as it arrives: playing, or (with
// `at`) paused at step `at` once computed, as a shared link asks.
// `finished(run)`, when given, is the status line once every step has arrived.
function follow(type, payload, describe, { at = null, finished = null } = {}) {
  stopCurrent();
  playback.detach();
  state.run = null;
  const view = state.view;
  const request = client.start(type, payload, (event) => {
    if (state.request !== request) return;
    if (event.kind === 'meta') {
      state.run = new EpisodeRun(event.meta, view.length(event.meta));
      state.chartsDrawn = 0;
      playback.attach(state.run, { play: at === null });
      setControlsEnabled(true);
      setStatus(describe(event.meta));
    } else if (event.kind === 'frames') {
      state.run.add(event.frames);
      $('computed').value = state.run.expected ? state.run.frames.length / state.run.expected : 0.5;
      playback.refresh();
    }
  });
  state.request = request;
  request.result.then((result) => {
    if (state.request !== request || result.cancelled) return;
    state.run.finish(result.summary);
    if (finished) setStatus(finished(state.run));
    $('computed').value = 1;
    $('export').disabled = false;
    if (at !== null) playback.seek(at);
    else playback.refresh();
  }, (e) => {
    if (state.request === request) showError(`${e.name}: ${e.message}`);
  });
}

function formProblems() {
  const seed = $('seed');
  const n = Number(seed.value);
  const seedOk = Number.isInteger(n) && n >= 0 && n <= Number.MAX_SAFE_INTEGER;
  seed.setAttribute('aria-invalid', seedOk ? 'false' : 'true');
  $('seed-error').textContent = seedOk ? '' : 'Expected a whole number from 0.';
  return !(state.fields.validate() && seedOk);
}

async function runEpisode({ at = null } = {}) {
  clearErrors();
  if (formProblems()) return showError('The episode form has problems: see the fields marked.');
  const p = selectedPolicy();
  let config;
  try {
    config = await state.fields.prepare();
  } catch (e) {
    return showError(e.message);
  }
  $('export').disabled = true;
  const data = state.fields.dataLabel();
  const args = { env: state.env, config, policy: p.policy, policyConfig: p.policyConfig, seed: Number($('seed').value) };
  follow('run', { args }, (m) => state.view.describeRun(m, p.label, data), { at });
  return true;
}

async function replayEpisode({ name, json }) {
  if (json.env && json.env !== state.env) {
    $('env').value = json.env;
    await showEnv(json.env);
  }
  let data;
  try {
    data = await state.fields.prepareReplay(name, json);
  } catch (e) {
    return showError(e.message);
  }
  $('export').disabled = true;
  follow('replay', { episode: json }, (m) => `Replaying ${name}: ${m.policy} on ${data}, ${state.run?.length ?? ''} ${state.view.stepName}s, checking every reward.`,
    { finished: (run) => `Replayed ${name}: all ${run.frames.length} ${state.view.stepName}s, every reward equal to the recording's (a differing one stops the replay with an error).` });
  return true;
}

// ---- files ----

async function takeFiles(files) {
  clearErrors();
  const found = await classifyFiles(files);
  for (const problem of found.problems) showError(problem.message);
  for (const { name, json } of found.policies) {
    const value = `dropped:${name}`;
    state.learned.set(value, { label: `${name} (${json.agent})`, file: json });
    fillPolicies();
    $('policy').value = value;
    describePolicy();
  }
  if (found.profiles.length) {
    for (const problem of state.profile.takeFiles(found.profiles)) showError(problem);
    $('profile-title').scrollIntoView?.({ block: 'nearest' });
  }
  if (found.data.length) {
    const status = await state.fields.takeData(found.data, showError);
    if (status) setStatus(status);
  }
  let started = false;
  for (const episode of found.episodes) started = (await replayEpisode(episode)) || started;
  if (!started) playback.refresh(); // the episode shown stays; its state is shown again
}

// ---- drawing ----

function setControlsEnabled(on) {
  for (const id of ['play', 'back', 'forward', 'jump', 'jump-to']) $(id).disabled = !on;
}

function render(cursor, status) {
  const run = state.run;
  if (!run) return;
  const shown = cursor + 1;
  const first = state.view.firstStep(run.meta);
  $('window-counter').textContent = cursor < 0 ? `– / ${run.length}` : `${first + cursor} (${shown} of ${run.length})`;
  $('window-counter').dataset.shown = String(shown);
  state.figures(run, cursor);
  $('play').textContent = status === 'playing' ? 'Pause' : status === 'ended' ? 'Replay' : 'Play';
  document.body.dataset.playback = status;
  document.body.dataset.complete = String(run.isEnd(cursor));
  $('jump').max = String(Math.max(0, run.frames.length - 1));
  $('jump').value = String(Math.max(0, cursor));
  $('jump-to').value = String(first + Math.max(0, cursor));
  const now = performance.now();
  if (cursor >= 0 && (status !== 'playing' || now - state.chartsDrawn > CHART_INTERVAL_MS)) {
    state.chartsDrawn = now;
    for (const c of state.charts) c.update(run, cursor);
  }
}

// ---- wiring ----

// Marks the episode shown as superseded at once, before any await: whoever waits for the end of
// the next episode (a person or a test) never sees the end of the previous one.
function superseded() {
  document.body.dataset.complete = 'false';
  document.body.dataset.playback = 'computing';
}

function wire() {
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    superseded();
    runEpisode().then((started) => started || playback.refresh());
  });
  form.addEventListener('input', () => formProblems());
  $('env').addEventListener('change', (e) => showEnv(e.target.value, { generic: state.generic }).catch((err) => showError(err.message)));
  $('policy').addEventListener('change', describePolicy);
  $('compare').addEventListener('click', compareAll);
  $('files').addEventListener('change', (e) => superseded() || takeFiles([...e.target.files]).finally(() => { e.target.value = ''; }));
  const zone = $('drop-zone');
  zone.addEventListener('dragover', (e) => { e.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (e) => {
    e.preventDefault();
    zone.classList.remove('over');
    superseded();
    takeFiles([...e.dataTransfer.files]);
  });
  zone.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') $('files').click();
  });
  $('play').addEventListener('click', () => playback.toggle());
  $('back').addEventListener('click', () => playback.step(-1));
  $('forward').addEventListener('click', () => playback.step(1));
  $('speed').addEventListener('change', (e) => playback.setSpeed(Number(e.target.value)));
  $('jump').addEventListener('input', (e) => playback.seek(Number(e.target.value)));
  $('jump-to').addEventListener('change', (e) => playback.seek(Number(e.target.value) - (state.run ? state.view.firstStep(state.run.meta) : 0)));
  $('export').addEventListener('click', exportEpisode);
  $('share').addEventListener('click', share);
  document.addEventListener('keydown', (e) => {
    if (!state.run || e.target.closest('input, select, textarea, [role="button"]')) return;
    const keys = { ' ': () => playback.toggle(), ArrowLeft: () => playback.step(-1), ArrowRight: () => playback.step(1),
      Home: () => playback.seek(0), End: () => playback.seek(Infinity) };
    if (keys[e.key] && !(e.target instanceof HTMLButtonElement && e.key === ' ')) {
      e.preventDefault();
      keys[e.key]();
    }
  });
}

async function compareAll() {
  clearErrors();
  if (formProblems()) return showError('The episode form has problems: see the fields marked.');
  let config;
  try {
    config = await state.fields.prepare();
  } catch (e) {
    return showError(e.message);
  }
  const chosen = selectedPolicy();
  const policies = state.policies.filter((p) => !p.needs_parameters)
    .map((p) => ({ policy: p.name, label: p.name, oracle: p.oracle, value: `builtin:${p.name}` }));
  if (chosen.file) policies.push({ policy: 'learned', policyConfig: chosen.file, label: chosen.label, value: $('policy').value });
  const args = { env: state.env, config, policies, seed: Number($('seed').value) };
  state.comparisonCharts ??= comparisonCharts($('comparison-bars'), $('comparison-curves'), playCompared);
  await fillComparison($('comparison'), client, args, { current: chosen.label, view: state.view, caption: state.view.caption(config),
    charts: state.comparisonCharts, onSelect: playCompared }, showError);
}

// A comparison row chosen: that policy becomes the form's and its episode plays.
function playCompared(row) {
  if (![...$('policy').options].some((o) => o.value === row.value)) return;
  $('policy').value = row.value;
  describePolicy();
  superseded();
  runEpisode().then((started) => started || playback.refresh());
  $('player-title').scrollIntoView?.({ block: 'nearest' });
}

async function exportEpisode() {
  if (!state.request) return;
  try {
    const text = await client.request('export', { of: state.request.id });
    const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
    const a = Object.assign(document.createElement('a'), { href: url, download: `sysgym-episode-${state.run.meta.policy}.json` });
    a.click();
    URL.revokeObjectURL(url);
  } catch (e) {
    showError(`export: ${e.message}`);
  }
}

// The URL fragment: #env=...&policy=...&<the view's fields>&seed=...[&at=STEP]. With `at` (an
// episode was shown), the link runs the same episode and stops at the step the sender was on.
async function share() {
  const params = new URLSearchParams({ env: state.env, policy: $('policy').value });
  if (state.generic) params.set('view', 'generic');
  state.fields.toParams(params);
  params.set('seed', $('seed').value);
  const shown = Boolean(state.run) && !state.run.meta.isReplay;
  if (shown) params.set('at', String(Math.max(0, playback.cursor)));
  location.hash = `#${params}`;
  const what = shown ? 'this env, its data, policy, config and the step shown' : 'this env, its data, policy and config';
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus(`Link copied: it opens ${what}.`);
  } catch {
    setStatus(`Link to ${what}: ${location.href}`);
  }
}

async function main() {
  wire();
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  try {
    state.catalogue = await loadCatalogue();
    const envs = await client.request('envs');
    $('env').replaceChildren(...envs.map((id) => option(id, id)));
    const wanted = [params.get('env'), FIRST_ENV].find((id) => envs.includes(id)) ?? envs[0];
    $('env').value = wanted;
    await loadShippedPolicies();
    state.profile = new ProfilePanel({ select: $('profile-run'), start: $('profile-start'), progress: $('profile-progress'),
      status: $('profile-status'), bars: $('profile-bars'), timeline: $('profile-timeline'), table: $('profile-table') },
    { client, catalogue: state.catalogue, prepare: profiledConfig, showError });
    await showEnv(wanted, { generic: params.get('view') === 'generic' });
  } catch (e) {
    return showError(`The playground could not start: ${e.message}`);
  }
  state.fields.fromParams(params);
  if (params.has('seed')) $('seed').value = params.get('seed');
  const policy = params.get('policy');
  if (policy && [...$('policy').options].some((o) => o.value === policy)) $('policy').value = policy;
  describePolicy();
  formProblems();
  for (const id of ['run', 'compare']) $(id).disabled = false;
  setStatus(readyStatus());
  document.body.dataset.ready = 'true';
  const at = Number(params.get('at'));
  if (params.has('at') && Number.isInteger(at) && at >= 0) {
    superseded();
    runEpisode({ at }).then((started) => started || playback.refresh());
  }
}

main();

// The playground page: wires the form, the files a visitor drops, the simulation worker, the
// playback controls and the charts together. Data flows one way: worker frames -> EpisodeRun ->
// Playback position -> figures and charts.
import { WorkerClient } from './client.js';
import { cumulativeChart, heatmapChart, residentChart, windowTimeChart } from './charts.js';
import { envConfig, hashToState, lockToPolicy, seedOf, setSchema, stateToHash, validate } from './form.js';
import { formatBytes, formatMs, formatPercent, showFigure } from './format.js';
import { Playback } from './playback.js';
import { EpisodeRun } from './run.js';
import { classifyFiles, droppedTrace, fileNames, findShipped, loadCatalogue, shippedTrace } from './sources.js';
import { fillComparison } from './comparison.js';

// The env this page shows (its views are memtier's: heatmap of bins, HBM residency).
const ENV = 'memtier-v0';
const $ = (id) => document.getElementById(id);
const form = $('config-form');
const client = new WorkerClient();
const charts = {
  heatmap: heatmapChart($('heatmap')),
  window: windowTimeChart($('window-chart')),
  cumulative: cumulativeChart($('cumulative-chart')),
  resident: residentChart($('resident-chart')),
};
const CHART_INTERVAL_MS = 150; // charts redraw at most this often while playing

const state = {
  catalogue: null,
  policies: [],
  dropped: new Map(), // trace option value -> {name, label, files, source, transfer}
  learned: new Map(), // policy option value -> {label, file}
  run: null,
  request: null, // the worker request of the episode shown
  chartsDrawn: 0,
};
const playback = new Playback(render);

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

// ---- traces and policies in the selects ----

function option(value, label) {
  const o = document.createElement('option');
  o.value = value;
  o.textContent = label;
  return o;
}

function group(label, options) {
  const g = document.createElement('optgroup');
  g.label = label;
  g.append(...options);
  return g;
}

function fillTraces() {
  const real = state.catalogue.traces.filter((t) => !t.synthetic).map((t) => option(t.id, t.label));
  const synth = state.catalogue.traces.filter((t) => t.synthetic).map((t) => option(t.id, t.label));
  const dropped = [...state.dropped].map(([value, t]) => option(value, t.label));
  const select = $('trace');
  const current = select.value;
  select.replaceChildren(group('Real programs', real), group('Synthetic', synth));
  if (dropped.length) select.append(group('Your files', dropped));
  if (current) select.value = current;
  describeTrace();
}

function describeTrace() {
  const entry = state.catalogue.traces.find((t) => t.id === $('trace').value);
  $('trace-about').textContent = entry?.about ?? state.dropped.get($('trace').value)?.files.join(' + ') ?? '';
}

function fillPolicies() {
  const builtin = state.policies.filter((p) => !p.needs_parameters);
  const plain = builtin.filter((p) => !p.oracle).map((p) => option(`builtin:${p.name}`, p.name));
  const oracles = builtin.filter((p) => p.oracle).map((p) => option(`builtin:${p.name}`, `${p.name} (reads the future)`));
  const learned = [...state.learned].map(([value, l]) => option(value, l.label));
  const select = $('policy');
  const current = select.value;
  select.replaceChildren(group('Baselines and heuristics', plain), group('Oracles', oracles), group('Learned', learned));
  if (current) select.value = current;
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

function describePolicy() {
  const p = selectedPolicy();
  const info = state.policies.find((x) => x.name === p.policy);
  $('policy-about').textContent = p.file
    ? `A ${p.file.agent.toUpperCase()} policy trained natively (${p.file.training?.env_steps ?? '?'} steps); it fixes bins to ${p.file.env.config.bins}.`
    : info?.summary ?? '';
  lockToPolicy(form, p.file);
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

// ---- episodes ----

function traceRequest(value) {
  const entry = state.catalogue.traces.find((t) => t.id === value);
  if (entry) return shippedTrace(entry);
  return state.dropped.get(value);
}

async function ensureTrace(t) {
  if (!t.source) return;
  await client.request('trace', { name: t.name, source: t.source, files: t.files ?? [] });
}

function stopCurrent() {
  if (state.request) {
    client.cancel(state.request.id);
    client.request('drop', { of: state.request.id });
  }
  state.request = null;
}

// Starts a worker episode request (run or replay) and shows it as it arrives.
function follow(type, payload, describe) {
  stopCurrent();
  playback.detach();
  state.run = null;
  const request = client.start(type, payload, (event) => {
    if (state.request !== request) return;
    if (event.kind === 'meta') {
      state.run = new EpisodeRun(event.meta);
      state.chartsDrawn = 0;
      playback.attach(state.run);
      setControlsEnabled(true);
      setStatus(describe(event.meta));
    } else if (event.kind === 'frames') {
      state.run.add(event.frames);
      $('computed').value = state.run.frames.length / state.run.windows;
      playback.refresh();
    }
  });
  state.request = request;
  request.result.then((result) => {
    if (state.request !== request || result.cancelled) return;
    state.run.finish(result.summary);
    $('computed').value = 1;
    $('export').disabled = false;
    playback.refresh();
  }, (e) => {
    if (state.request === request) showError(`${e.name}: ${e.message}`);
  });
}

async function runEpisode() {
  clearErrors();
  if (!validate(form)) return showError('The episode form has problems: see the fields marked.');
  const trace = traceRequest($('trace').value);
  const p = selectedPolicy();
  try {
    await ensureTrace(trace);
  } catch (e) {
    return showError(e.message);
  }
  $('export').disabled = true;
  const args = { env: ENV, config: envConfig(form, trace.name), policy: p.policy, policyConfig: p.policyConfig, seed: seedOf(form) };
  follow('run', { args }, (m) => `${p.label} on ${$('trace').selectedOptions[0]?.textContent}: ${m.windows} windows, HBM ${formatBytes(m.facts.hbm_capacity_bytes)} of ${formatBytes(m.facts.footprint_bytes)}.`);
  return true;
}

async function replayEpisode({ name, json }) {
  const trace = String(json.config?.trace ?? '');
  const shipped = findShipped(state.catalogue, trace);
  const dropped = [...state.dropped.values()].find((t) => t.name === trace || t.files.join(',') === fileNames(trace));
  try {
    if (trace.startsWith('synth:')) {
      // built in: nothing to load
    } else if (shipped) {
      await ensureTrace({ ...shippedTrace(shipped), name: trace });
    } else if (dropped) {
      await ensureTrace({ ...dropped, name: trace });
    } else {
      return showError(`${name}: the episode was recorded on trace "${trace}", which is not loaded here: drop its trace files first, then the episode again.`);
    }
  } catch (e) {
    return showError(e.message);
  }
  $('export').disabled = true;
  follow('replay', { episode: json }, (m) => `Replaying ${name}: ${m.policy} on ${trace}, ${m.windows} windows, checking every reward.`);
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
  if (found.pair || found.prepared) {
    const t = await droppedTrace(found);
    try {
      await client.request('trace', { name: t.name, source: t.source, files: t.files }, null, t.transfer);
      state.dropped.set(`dropped:${t.name}`, { ...t, source: null });
      fillTraces();
      $('trace').value = `dropped:${t.name}`;
      describeTrace();
      setStatus(`Loaded ${t.label}. Run an episode on it.`);
    } catch (e) {
      showError(e.message);
    }
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
  $('window-counter').textContent = cursor < 0 ? `– / ${run.windows}` : `${run.meta.start + cursor} (${shown} of ${run.windows})`;
  $('window-counter').dataset.shown = String(shown);
  const totals = run.totalsAt(cursor);
  showFigure($('estimated-ms'), totals.estimated_ms, formatMs);
  showFigure($('migration-ms'), totals.migration_ms, formatMs);
  showFigure($('total-ms'), totals.total_ms, formatMs);
  showFigure($('ddr-ms'), totals.ddr_ms, formatMs);
  showFigure($('hbm-ms'), totals.hbm_ms, formatMs);
  showFigure($('gap-closed'), totals.gap_closed, formatPercent);
  $('gap-meter').value = Math.max(-1, Math.min(1, totals.gap_closed));
  const frame = run.frames[cursor];
  const occupancy = frame ? frame.info.hbm_occupancy : 0;
  $('occupancy-meter').value = occupancy;
  $('occupancy').textContent = frame ? `${formatPercent(occupancy)} (${formatBytes(frame.info.hbm_used_bytes)})` : '–';
  $('play').textContent = status === 'playing' ? 'Pause' : status === 'ended' ? 'Replay' : 'Play';
  document.body.dataset.playback = status;
  document.body.dataset.complete = String(run.complete && cursor === run.frames.length - 1);
  $('jump').max = String(Math.max(0, run.frames.length - 1));
  $('jump').value = String(Math.max(0, cursor));
  $('jump-to').value = String(run.meta.start + Math.max(0, cursor));
  const now = performance.now();
  if (cursor >= 0 && (status !== 'playing' || now - state.chartsDrawn > CHART_INTERVAL_MS)) {
    state.chartsDrawn = now;
    for (const c of Object.values(charts)) c.update(run, cursor);
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
  form.addEventListener('input', () => validate(form));
  $('trace').addEventListener('change', describeTrace);
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
  $('jump-to').addEventListener('change', (e) => playback.seek(Number(e.target.value) - (state.run?.meta.start ?? 0)));
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
  if (!validate(form)) return showError('The episode form has problems: see the fields marked.');
  const trace = traceRequest($('trace').value);
  try {
    await ensureTrace(trace);
  } catch (e) {
    return showError(e.message);
  }
  const chosen = selectedPolicy();
  const policies = state.policies.filter((p) => !p.needs_parameters).map((p) => ({ policy: p.name, label: p.name, oracle: p.oracle }));
  if (chosen.file) policies.push({ policy: 'learned', policyConfig: chosen.file, label: chosen.label });
  const config = envConfig(form, trace.name);
  await fillComparison($('comparison'), client, { env: ENV, config, policies, seed: seedOf(form) }, chosen.label, showError);
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

async function share() {
  location.hash = stateToHash(form, { trace: $('trace').value, policy: $('policy').value });
  try {
    await navigator.clipboard.writeText(location.href);
    setStatus('Link copied: it opens this trace, policy and config.');
  } catch {
    setStatus(`Link to this trace, policy and config: ${location.href}`);
  }
}

async function main() {
  wire();
  try {
    state.catalogue = await loadCatalogue();
    state.policies = await client.request('policies');
    setSchema(form, await client.request('schema', { env: ENV }));
    await loadShippedPolicies();
  } catch (e) {
    return showError(`The playground could not start: ${e.message}`);
  }
  fillTraces();
  fillPolicies();
  const wanted = hashToState(form, location.hash);
  if (wanted.trace && [...$('trace').options].some((o) => o.value === wanted.trace)) $('trace').value = wanted.trace;
  if (wanted.policy && [...$('policy').options].some((o) => o.value === wanted.policy)) $('policy').value = wanted.policy;
  describeTrace();
  describePolicy();
  validate(form);
  document.body.dataset.ready = 'true';
}

main();

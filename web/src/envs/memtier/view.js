// memtier in the web shell: its trace picker and config fields, the figures and charts of an
// episode (times against the all-DDR and all-HBM bounds, gap closed, HBM occupancy, a heatmap
// of bins over windows), its comparison columns and what <sysgym-player> draws for it.
import { SchemaForm } from '../../shell/schema_form.js';
import { chartPanel, group, option } from '../../shell/dom.js';
import { formatBytes, formatMs, formatPercent, showFigure } from '../../shell/format.js';
import { cumulativeChart, heatmapChart, occupancyChart, residentChart, windowTimeChart } from './charts.js';
import { displayName, droppedTrace, ensureTrace, findShipped, shippedTrace } from './traces.js';

const CAPACITY = /^\s*\d+(\.\d+)?\s*(%|B|KB|MB|GB|KiB|MiB|GiB)?\s*$/i;
// The heatmap draws one row per bin: above this many the chart would not be readable or fast,
// whatever the env accepts.
const DRAWABLE_BINS = 4096;
// The first screen's trace: the shipped one with the widest DDR/HBM gap (428 vs 270 ms), where
// the default policy visibly closes part of it (lfu-hemem: 57 % at 10 % capacity).
const DEFAULT_TRACE = 'hpcc-randomaccess';

// The episode's totals after window `index`: running sums of its info, the core's summary at the
// end (the same additions in the same order, so they agree with it to the last bit until then).
function totalsAt(run, index) {
  if (run.isEnd(index)) return run.summary;
  const estimated = run.sumAt('window_ms', index);
  const migration = run.sumAt('migration_ms', index);
  const total = estimated + migration;
  const ddr = run.sumAt('t_ddr_ms', index);
  const hbm = run.sumAt('t_hbm_ms', index);
  return { estimated_ms: estimated, migration_ms: migration, total_ms: total, ddr_ms: ddr, hbm_ms: hbm,
    gap_closed: ddr === hbm ? 0 : (ddr - total) / (ddr - hbm) };
}

// The trace select and its fields: shipped traces, synthetic ones and files the visitor dropped.
class TracePicker {
  #catalogue;
  #dropped = new Map(); // option value -> trace ({name, label, files, source})

  constructor(container, catalogue) {
    this.#catalogue = catalogue;
    this.select = Object.assign(document.createElement('select'), { id: 'trace', name: 'trace' });
    this.about = Object.assign(document.createElement('p'), { className: 'hint', id: 'trace-about' });
    const label = Object.assign(document.createElement('label'), { htmlFor: 'trace', textContent: 'Trace' });
    container.replaceChildren(label, this.select, this.about);
    this.select.addEventListener('change', () => this.describe());
    this.fill();
  }

  fill() {
    const traces = this.#catalogue.traces;
    const current = this.select.value;
    this.select.replaceChildren(group('Real programs', traces.filter((t) => !t.synthetic).map((t) => option(t.id, t.label))),
      group('Synthetic', traces.filter((t) => t.synthetic).map((t) => option(t.id, t.label))));
    const dropped = [...this.#dropped].map(([value, t]) => option(value, t.label));
    if (dropped.length) this.select.append(group('Your files', dropped));
    if (current) this.select.value = current;
    else if (traces.some((t) => t.id === DEFAULT_TRACE)) this.select.value = DEFAULT_TRACE;
    this.describe();
  }

  describe() {
    const entry = this.#catalogue.traces.find((t) => t.id === this.select.value);
    this.about.textContent = entry?.about ?? this.#dropped.get(this.select.value)?.files.join(' + ') ?? '';
  }

  selected() {
    const entry = this.#catalogue.traces.find((t) => t.id === this.select.value);
    return entry ? { ...shippedTrace(entry), label: entry.id } : this.#dropped.get(this.select.value);
  }

  addDropped(trace) {
    const value = `dropped:${trace.name}`;
    this.#dropped.set(value, { ...trace, source: null });
    this.fill();
    this.select.value = value;
    this.describe();
  }

  // The trace a recording names, if it is here: shipped (by its file names) or dropped.
  forRecording(trace) {
    if (trace.startsWith('synth:')) return { name: trace, source: null };
    const shipped = findShipped(this.#catalogue, trace);
    if (shipped) return { ...shippedTrace(shipped), name: trace };
    return [...this.#dropped.values()].find((t) => t.name === trace);
  }
}

// The env's part of the playground form: the trace and the config keys a visitor sets.
class MemtierForm {
  constructor({ data, fields }, schema, { client, catalogue }) {
    this.client = client;
    this.traces = new TracePicker(data, catalogue);
    this.fields = new SchemaForm(fields, schema, {
      keys: ['hbm_capacity', 'bins', 'migration_gbps', 'window_mode'],
      labels: { hbm_capacity: 'HBM capacity', bins: 'Bins', migration_gbps: 'Migration GB/s', window_mode: 'Windows' },
      initial: { hbm_capacity: '10%' },
      max: { bins: { value: DRAWABLE_BINS, why: (envMax) => `the env takes up to ${envMax}; the heatmap draws ${DRAWABLE_BINS} rows at most` } },
      checks: { hbm_capacity: (raw) => (CAPACITY.test(raw) ? null : 'a size such as 10%, 64MiB or 2097152 (bytes)') },
    });
  }

  validate() {
    return this.fields.validate();
  }

  // The config of an episode, its data loaded into the worker first.
  async prepare() {
    const trace = this.traces.selected();
    await ensureTrace(this.client, trace);
    return { trace: trace.name, ...this.fields.config() };
  }

  // The config the form gives, its trace not loaded (the status line, a caption).
  config() {
    return { trace: this.traces.selected()?.name, ...this.fields.config() };
  }

  // What the status line calls the data: the trace's display name.
  dataLabel() {
    return this.traces.selected()?.label ?? '';
  }

  lockToPolicy(file) {
    this.fields.lockToPolicy(file);
  }

  fixedKeys(file) {
    return this.fields.fixedKeys(file);
  }

  toParams(params) {
    params.set('trace', this.traces.select.value);
    this.fields.toParams(params);
  }

  fromParams(params) {
    const trace = params.get('trace');
    if (trace && [...this.traces.select.options].some((o) => o.value === trace)) this.traces.select.value = trace;
    this.traces.describe();
    this.fields.fromParams(params);
  }

  // Dropped non-JSON files: a trace pair or a preprocessed pair, loaded at once so that a bad
  // file is named now, not at the next run. Returns a status line, or null.
  async takeData(files, showError) {
    const { trace, problems } = await droppedTrace(files);
    for (const p of problems) showError(p.message);
    if (!trace) return null;
    try {
      await ensureTrace(this.client, trace);
    } catch (e) {
      showError(e.message);
      return null;
    }
    this.traces.addDropped(trace);
    return `Loaded ${trace.label}. Run an episode on it.`;
  }

  // Loads what a recording needs before it replays; throws naming the recording when it cannot.
  async prepareReplay(name, json) {
    const trace = String(json.config?.trace ?? '');
    const found = this.traces.forRecording(trace);
    if (!found) throw new Error(`${name}: the episode was recorded on trace "${trace}", which is not loaded here: drop its trace files first, then the episode again.`);
    await ensureTrace(this.client, { ...found, name: trace });
    return displayName(trace);
  }
}

const FIGURES = `
  <div><dt>Estimated time</dt><dd id="estimated-ms">–</dd></div>
  <div><dt>Migration</dt><dd id="migration-ms">–</dd></div>
  <div><dt>Total (estimated + migration)</dt><dd id="total-ms">–</dd></div>
  <div><dt>All DDR / all HBM</dt><dd><span id="ddr-ms">–</span> / <span id="hbm-ms">–</span></dd></div>
  <div>
    <dt><label for="gap-meter">Gap closed</label></dt>
    <dd><meter id="gap-meter" min="-1" max="1" low="0" optimum="1" value="0" hidden></meter> <span id="gap-closed">–</span></dd>
    <dd class="hint" id="gap-about">How much of the all-DDR to all-HBM difference the policy wins back, migration included:
      100 % is as fast as all data in HBM, 0 % as all in DDR; below 0 it is slower than leaving everything in DDR
      (its migrations cost more than they save).</dd>
  </div>
  <div>
    <dt><label for="occupancy-meter">HBM occupancy</label></dt>
    <dd><meter id="occupancy-meter" min="0" max="1" value="0"></meter> <span id="occupancy">–</span></dd>
  </div>`;

const LABELS = { estimated_ms: 'Estimated', migration_ms: 'Migration', total_ms: 'Total', gap_closed: 'Gap closed',
  bytes_moved: 'Moved' };

const PANELS = [
  [{ id: 'heatmap', title: 'Accesses by address over time: samples per window, green for data in HBM, grey in DDR', size: 'wide', height: 'chart tall' }, heatmapChart],
  [{ id: 'window-chart', title: 'Time per window, between the DDR and HBM bounds' }, windowTimeChart],
  [{ id: 'cumulative-chart', title: 'Cumulative time and migration cost' }, cumulativeChart],
  [{ id: 'occupancy-chart', title: 'HBM occupancy and bytes moved per window' }, occupancyChart],
  [{ id: 'resident-chart', title: 'Resident map of the current window' }, residentChart],
];

export const memtierView = {
  title: 'memtier: which data lives in fast HBM?',
  intro: 'Replay a program\'s sampled memory accesses window by window and watch a policy place address ranges in a small fast memory (HBM) while the rest stays in slow DDR.',
  dropHint: 'trace files (CSV, perf script or .bin: one with "ddr" and one with "hbm" in its name, or one preprocessed pair)',
  stepName: 'window',
  defaultPolicy: 'lfu-hemem',
  comparisonReference: 'all-ddr',

  length: (meta) => meta.context.windows,
  firstStep: (meta) => meta.context.start,

  form: (slots, schema, services) => new MemtierForm(slots, schema, services),

  // A run's status line.
  describeRun: (meta, policy, data) => `${policy} on ${data}: ${meta.context.windows} windows, HBM ${formatBytes(meta.facts.hbm_capacity_bytes)} of ${formatBytes(meta.facts.footprint_bytes)}.`,

  figures(dl) {
    dl.insertAdjacentHTML('beforeend', FIGURES);
    const $ = (id) => dl.querySelector(`#${id}`);
    return (run, cursor) => {
      const totals = totalsAt(run, cursor);
      for (const [id, key] of [['estimated-ms', 'estimated_ms'], ['migration-ms', 'migration_ms'], ['total-ms', 'total_ms'], ['ddr-ms', 'ddr_ms'], ['hbm-ms', 'hbm_ms']]) {
        showFigure($(id), totals[key], formatMs);
      }
      const gap = totals.gap_closed;
      showFigure($('gap-closed'), gap, formatPercent);
      // No meter before the first window: a meter at 0 on [-1, 1] would look half won.
      $('gap-meter').hidden = cursor < 0;
      $('gap-meter').value = Math.max(-1, Math.min(1, gap));
      const frame = run.frames[cursor];
      const occupancy = frame ? frame.info.hbm_occupancy : 0;
      $('occupancy-meter').value = occupancy;
      $('occupancy').textContent = frame ? `${formatPercent(occupancy)} (${formatBytes(frame.info.hbm_used_bytes)})` : '–';
    };
  },

  // The chart panels, appended to `container`; returns their charts.
  charts(container) {
    return PANELS.map(([panel, make]) => make(chartPanel(container, panel)));
  },

  // A summary or info key's name and format, in figures and the comparison table.
  label: (key) => LABELS[key] ?? key.replaceAll('_', ' '),
  format(key) {
    if (key.endsWith('_ms')) return formatMs;
    if (key === 'gap_closed' || key === 'hbm_occupancy') return formatPercent;
    if (key.includes('bytes')) return formatBytes;
    return String;
  },
  // What a comparison ran on, for its caption.
  caption: (config) => `${displayName(config.trace)}, HBM ${config.hbm_capacity ?? 'default'}`,

  // <sysgym-player>: a compact heatmap with a time axis, the total against the all-DDR and all-HBM
  // bounds so far, and the gap closed.
  player: {
    chart: (el) => heatmapChart(el, { compact: true, maxColumns: 240 }),
    legend: 'Address bins low to high, time left to right (ms of the all-DDR run); darker is more samples; green: data in HBM, grey: in DDR.',
    // [class, label, value(run, cursor), format]
    figures: [['total', 'total', (run, cursor) => totalsAt(run, cursor).total_ms, formatMs],
      ['ddr', 'all DDR', (run, cursor) => totalsAt(run, cursor).ddr_ms, formatMs],
      ['hbm', 'all HBM', (run, cursor) => totalsAt(run, cursor).hbm_ms, formatMs],
      ['gap', 'gap closed', (run, cursor) => totalsAt(run, cursor).gap_closed, formatPercent]],
    chartLabel: (label) => `Heatmap of accesses per address bin over time for ${label}; green is data in HBM.`,
    // The episode a player's attributes ask for: {type, payload, label} after loading its trace.
    async request(attrs, { client, catalogue, base }) {
      const trace = (name) => {
        const entry = catalogue.traces.find((t) => t.id === name) ?? findShipped(catalogue, name);
        if (entry) return shippedTrace(entry, base);
        if (name.startsWith('synth:')) return { name, source: null };
        const urls = name.split(',').map((u) => new URL(u.trim(), document.baseURI).href);
        if (urls.length !== 2) throw new Error(`trace "${name}": not a shipped trace, synth:PATTERN or "DDR_URL,HBM_URL"`);
        return { name, source: { urls } };
      };
      if (attrs.episode) {
        const t = trace(attrs.trace ?? String(attrs.episode.config?.trace ?? ''));
        t.name = String(attrs.episode.config?.trace ?? t.name); // registered as the recording names it
        await ensureTrace(client, t);
        return { type: 'replay', payload: { episode: attrs.episode }, data: displayName(t.name) };
      }
      const t = trace(attrs.trace ?? 'synth:phased');
      await ensureTrace(client, t);
      const config = { hbm_capacity: '10%', ...attrs.config, trace: t.name };
      return { type: 'run', payload: { args: { env: attrs.env, config, policy: attrs.policy ?? 'lru', policyConfig: attrs.policyConfig ?? {}, seed: 0 } }, data: displayName(t.name) };
    },
  },
};

// <sysgym-player>: a compact, self-running replay for documentation pages.
//
//   <sysgym-player trace="xz" policy="lfu-hemem" config='{"hbm_capacity": "10%"}'></sysgym-player>
//   <sysgym-player episode-src="episodes/lru.json"></sysgym-player>
//   <sysgym-player trace="sqlite" policy-src="policies/dqn-per-bin.json" speed="120" loop></sysgym-player>
//
// trace: a shipped trace id, "synth:PATTERN[:...]" or "DDR_URL,HBM_URL"; policy: a built-in policy;
// policy-src: a learned policy file; episode-src: a recorded episode (replayed; its trace comes
// from the catalogue); config: env config JSON; speed: windows per second (default 60); loop:
// start again at the end. The host's data-state is loading, playing, paused, ended or error.
import { WorkerClient } from './client.js';
import { heatmapChart } from './charts.js';
import { formatMs, formatPercent, showFigure } from './format.js';
import { Playback } from './playback.js';
import { EpisodeRun } from './run.js';
import { findShipped, loadCatalogue, shippedTrace } from './sources.js';

const BASE = new URL('./', import.meta.url).href;
let shared = null; // one worker and catalogue for every player on the page

function services() {
  shared ??= { client: new WorkerClient(), catalogue: loadCatalogue(BASE) };
  return shared;
}

const TEMPLATE = `
  <style>
    :host { display: block; font: 14px system-ui, sans-serif; color: #1d2330; border: 1px solid #d9dee7;
      border-radius: 8px; padding: 8px 10px; background: #fff; }
    .title { font-weight: 600; margin-bottom: 4px; }
    .chart { width: 100%; height: var(--sysgym-player-height, 180px); }
    .bar { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; font-variant-numeric: tabular-nums; margin-top: 4px; }
    button { font: inherit; padding: 2px 10px; border: 1px solid #3867d6; color: #3867d6; background: #fff; border-radius: 4px; cursor: pointer; }
    button:focus-visible { outline: 2px solid #3867d6; outline-offset: 2px; }
    .error { color: #b3261e; }
    .muted { color: #5b6475; }
  </style>
  <div class="title" part="title">Loading…</div>
  <div class="chart" role="img"></div>
  <div class="bar">
    <button type="button" class="toggle" aria-keyshortcuts="Space">Pause</button>
    <span class="window muted"></span>
    <span>total <b class="total">–</b></span>
    <span>gap closed <b class="gap">–</b></span>
  </div>
  <div class="error" role="alert"></div>`;

export class SysgymPlayer extends HTMLElement {
  #root;
  #chart = null;
  #run = null;
  #playback;
  #request = null;
  #drawn = 0;
  #again = 0;

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#root.innerHTML = TEMPLATE;
    this.#playback = new Playback((cursor, state) => this.#render(cursor, state));
    this.#root.querySelector('.toggle').addEventListener('click', () => this.#playback.toggle());
  }

  connectedCallback() {
    this.dataset.state = 'loading';
    this.#chart ??= heatmapChart(this.#root.querySelector('.chart'), { compact: true, maxColumns: 240 });
    this.#start().catch((e) => this.#fail(e.message));
  }

  disconnectedCallback() {
    this.#playback.pause();
    if (this.#request) services().client.cancel(this.#request.id);
  }

  #fail(message) {
    this.dataset.state = 'error';
    this.#root.querySelector('.error').textContent = message;
    this.#root.querySelector('.title').textContent = 'sysgym player';
  }

  async #json(attribute) {
    const url = new URL(this.getAttribute(attribute), document.baseURI);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${attribute} ${url}: HTTP ${response.status}`);
    try {
      return await response.json();
    } catch (e) {
      throw new Error(`${attribute} ${url}: not valid JSON (${e.message})`);
    }
  }

  // The trace request for a name: shipped id or pair of names, synthetic, or "DDR_URL,HBM_URL".
  #trace(catalogue, name) {
    const entry = catalogue.traces.find((t) => t.id === name) ?? findShipped(catalogue, name);
    if (entry) return shippedTrace(entry, BASE);
    if (name.startsWith('synth:')) return { name, source: null };
    const urls = name.split(',').map((u) => new URL(u.trim(), document.baseURI).href);
    if (urls.length !== 2) throw new Error(`trace "${name}": not a shipped trace, synth:PATTERN or "DDR_URL,HBM_URL"`);
    return { name, source: { urls } };
  }

  async #start() {
    const { client, catalogue: pending } = services();
    const catalogue = await pending;
    this.#playback.setSpeed(Number(this.getAttribute('speed') ?? 60));
    let type;
    let payload;
    let trace;
    if (this.hasAttribute('episode-src')) {
      const episode = await this.#json('episode-src');
      trace = this.#trace(catalogue, this.getAttribute('trace') ?? String(episode.config?.trace ?? ''));
      trace.name = String(episode.config?.trace ?? trace.name); // registered as the recording names it
      [type, payload] = ['replay', { episode }];
    } else {
      trace = this.#trace(catalogue, this.getAttribute('trace') ?? 'synth:phased');
      let config = { hbm_capacity: '10%', ...JSON.parse(this.getAttribute('config') ?? '{}'), trace: trace.name };
      let policy = this.getAttribute('policy') ?? 'lru';
      let policyConfig = {};
      if (this.hasAttribute('policy-src')) {
        policyConfig = await this.#json('policy-src');
        policy = 'learned'; // the worker runs it on the settings its file fixes
      }
      const env = this.getAttribute('env') ?? 'memtier-v0';
      [type, payload] = ['run', { args: { env, config, policy, policyConfig, seed: 0 } }];
    }
    if (trace.source) await client.request('trace', { name: trace.name, source: trace.source, files: [] });
    this.#play(client, type, payload, trace);
  }

  #play(client, type, payload, trace) {
    this.#request = client.start(type, payload, (event) => {
      if (event.kind === 'meta') {
        this.#run = new EpisodeRun(event.meta);
        const label = this.getAttribute('label') ?? `${event.meta.policy} on ${trace.name.split(',')[0].split('/').pop().replace(/\.ddr\.\w+$/, '')}`;
        this.#root.querySelector('.title').textContent = `${label}${event.meta.isReplay ? ' (recorded)' : ''}`;
        this.#root.querySelector('.chart').setAttribute('aria-label', `Heatmap of accesses per address bin over time for ${label}; green is data in HBM.`);
        this.#playback.attach(this.#run);
      } else if (event.kind === 'frames') {
        this.#run.add(event.frames);
        this.#playback.refresh();
      }
    });
    this.#request.result.then((result) => {
      if (result.cancelled) return;
      this.#run.finish(result.summary);
      this.#playback.refresh();
    }, (e) => this.#fail(e.message));
  }

  #render(cursor, state) {
    if (!this.#run) return;
    this.dataset.state = state;
    const toggle = this.#root.querySelector('.toggle');
    toggle.textContent = state === 'playing' ? 'Pause' : state === 'ended' ? 'Replay' : 'Play';
    this.#root.querySelector('.window').textContent = `window ${Math.max(cursor + 1, 0)} / ${this.#run.windows}`;
    const totals = this.#run.totalsAt(cursor);
    showFigure(this.#root.querySelector('.total'), totals.total_ms, formatMs);
    showFigure(this.#root.querySelector('.gap'), totals.gap_closed, formatPercent);
    const now = performance.now();
    if (cursor >= 0 && (state !== 'playing' || now - this.#drawn > 200)) {
      this.#drawn = now;
      this.#chart.update(this.#run, cursor);
    }
    if (state === 'ended' && this.hasAttribute('loop') && !this.#again) {
      this.#again = setTimeout(() => {
        this.#again = 0;
        this.#playback.play();
      }, 1500);
    }
  }
}

customElements.define('sysgym-player', SysgymPlayer);

// <sysgym-player>: a compact, self-running replay for documentation pages.
//
//   <sysgym-player trace="xz" policy="lfu-hemem" config='{"hbm_capacity": "10%"}'></sysgym-player>
//   <sysgym-player episode-src="episodes/lru.json"></sysgym-player>
//   <sysgym-player trace="sqlite" policy-src="policies/dqn-per-bin.json" speed="120" loop></sysgym-player>
//
// env: the env id (default memtier-v0; a recording's own env when episode-src is given); policy:
// a built-in policy; policy-src: a learned policy file; episode-src: a recorded episode
// (replayed); config: env config JSON; speed: steps per second (default 60); loop: start again at
// the end; label: the title. The env's view reads its own attributes (memtier: trace, a shipped
// trace id, "synth:PATTERN[:...]" or "DDR_URL,HBM_URL") and draws the chart. The host's
// data-state is loading, playing, paused, ended or error.
import { WorkerClient } from './shell/client.js';
import { showFigure } from './shell/format.js';
import { Playback } from './shell/playback.js';
import { EpisodeRun } from './shell/episode_run.js';
import { loadCatalogue } from './shell/files.js';
import { viewFor } from './envs/index.js';

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
    .legend { font-size: 12px; }
    [hidden] { display: none !important; }
  </style>
  <div class="title" part="title">Loading…</div>
  <div class="chart" role="img"></div>
  <div class="legend muted" part="legend"></div>
  <div class="bar">
    <button type="button" class="toggle" aria-keyshortcuts="Space">Pause</button>
    <span class="window muted"></span>
  </div>
  <div class="error" role="alert"></div>`;

export class SysgymPlayer extends HTMLElement {
  #root;
  #chart = null;
  #view = null;
  #figures = [];
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
    this.#start().catch((e) => this.#fail(e.message));
  }

  // A page may remove a player at any time, also while it loads: whatever it awaits then finds it
  // disconnected and stops (a removed player that went on drew into a detached chart).
  disconnectedCallback() {
    this.#playback.pause();
    clearTimeout(this.#again);
    this.#again = 0;
    if (this.#request) services().client.cancel(this.#request.id);
    this.#request = null;
  }

  // An error replaces the player: no button, chart or figures over an empty area.
  #fail(message) {
    this.#playback.pause();
    this.dataset.state = 'error';
    this.#root.querySelector('.error').textContent = message;
    this.#root.querySelector('.title').textContent = 'sysgym player';
    for (const part of ['.chart', '.legend', '.bar']) this.#root.querySelector(part).hidden = true;
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

  // The view's chart and figures, once the env is known.
  #useView(env) {
    this.#view = viewFor(env);
    this.#chart = this.#view.player.chart(this.#root.querySelector('.chart'), services());
    this.#root.querySelector('.legend').textContent = this.#view.player.legend ?? '';
    const bar = this.#root.querySelector('.bar');
    this.#figures = this.#view.player.figures.map(([className, name, value, format]) => {
      const span = document.createElement('span');
      const b = Object.assign(document.createElement('b'), { className, textContent: '–' });
      span.append(`${name} `, b);
      bar.append(span);
      return { el: b, value, format };
    });
  }

  async #start() {
    const { client, catalogue: pending } = services();
    const catalogue = await pending;
    if (!this.isConnected) return;
    this.#playback.setSpeed(Number(this.getAttribute('speed') ?? 60));
    const attrs = { trace: this.getAttribute('trace') ?? undefined, policy: this.getAttribute('policy') ?? undefined };
    if (this.hasAttribute('episode-src')) attrs.episode = await this.#json('episode-src');
    if (!this.isConnected) return;
    attrs.env = attrs.episode?.env ?? this.getAttribute('env') ?? 'memtier-v0';
    try {
      attrs.config = JSON.parse(this.getAttribute('config') ?? '{}');
    } catch (e) {
      throw new Error(`config: not valid JSON (${e.message})`);
    }
    if (this.hasAttribute('policy-src')) {
      attrs.policyConfig = await this.#json('policy-src');
      attrs.policy = 'learned'; // the core runs it on the settings its file fixes
      if (!this.isConnected) return;
    }
    this.#useView(attrs.env);
    const { type, payload, data } = await this.#view.player.request(attrs, { client, catalogue, base: BASE });
    if (this.isConnected) this.#play(client, type, payload, data);
  }

  #play(client, type, payload, data) {
    this.#request = client.start(type, payload, (event) => {
      if (!this.isConnected) return;
      if (event.kind === 'meta') {
        this.#run = new EpisodeRun(event.meta, this.#view.length(event.meta));
        const label = this.getAttribute('label') ?? `${event.meta.policy} on ${data}`;
        this.#root.querySelector('.title').textContent = `${label}${event.meta.isReplay ? ' (recorded)' : ''}`;
        this.#root.querySelector('.chart').setAttribute('aria-label', this.#view.player.chartLabel(label));
        this.#playback.attach(this.#run);
      } else if (event.kind === 'frames') {
        this.#run.add(event.frames);
        this.#playback.refresh();
      }
    });
    this.#request.result.then((result) => {
      if (result.cancelled || !this.isConnected) return;
      this.#run.finish(result.summary);
      this.#playback.refresh();
    }, (e) => this.#fail(e.message));
  }

  #render(cursor, state) {
    if (!this.#run || this.dataset.state === 'error' || !this.isConnected) return;
    this.dataset.state = state;
    const toggle = this.#root.querySelector('.toggle');
    toggle.textContent = state === 'playing' ? 'Pause' : state === 'ended' ? 'Replay' : 'Play';
    this.#root.querySelector('.window').textContent = `${this.#view.stepName} ${Math.max(cursor + 1, 0)} / ${this.#run.length}`;
    for (const f of this.#figures) showFigure(f.el, f.value(this.#run, cursor), f.format);
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

// The call graph explored: the episode's decisions at the step shown, or decisions set by hand
// (an edge clicked toggles its calls, a function clicked lists its call sites with a box each),
// with the cost model's text size and instructions for them next to clang's, estimated by the
// core in the worker (sysgym.inline.estimate, the figures `sysgym inline estimate` prints).
import { formatBytes } from '../../shell/format.js';
import { callGraphChart, DECISION_COLORS } from './call_graph.js';
import { playedProgram } from './programs.js';

const count = (n) => Math.round(n).toLocaleString('en-US');
const ratio = (v) => v.toFixed(4);

// The decisions of the episode's first `cursor + 1` steps (sites not yet decided: not inlined).
export function episodeBits(run, cursor, graph) {
  const bits = new Uint8Array(graph.sites.length);
  for (let i = 0; i <= cursor && i < run.frames.length; i += 1) {
    const { site, action } = run.frames[i].info;
    if (action === 1) bits[graph.order[site - 1]] = 1;
  }
  return bits;
}

// The site the step at `cursor` decided, or -1.
export function decidedSite(run, cursor, graph) {
  const frame = run.frames[cursor];
  return frame && frame.info.site >= 1 ? graph.order[frame.info.site - 1] : -1;
}

// The config the model's requests use: the episode's, on the program it played.
export const estimateConfig = (meta) => ({ ...meta.config, program: playedProgram(meta) });

// A program's graph and clang's figures, asked of the worker once per config.
export function graphSource(client) {
  const cache = new Map();
  const estimate = (config, decisions, graph = false) =>
    client.request('extra', { family: 'inline', method: 'estimate', args: [{ config, decisions, graph }] });
  return {
    estimate,
    load(config) {
      const key = JSON.stringify(config);
      if (!cache.has(key)) {
        cache.set(key, Promise.all([estimate(config, 'Oz', true), estimate(config, 'O2')])
          .then(([oz, o2]) => ({ graph: oz.graph, oz, o2 })));
      }
      return cache.get(key);
    },
  };
}

function element(tag, props = {}, ...children) {
  const el = Object.assign(document.createElement(tag), props);
  el.append(...children);
  return el;
}

export class Explorer {
  constructor(container, { client }) {
    this.source = graphSource(client);
    this.hand = null; // Uint8Array while decisions are set by hand
    this.selected = -1;
    this.shown = null; // {run, cursor, config, loaded}
    this.pending = null; // the latest estimate wanted while one is in flight
    this.busy = false;
    this.#build(container);
  }

  #build(container) {
    const section = element('section', { className: 'panel wide', id: 'inline-explorer' });
    section.setAttribute('aria-labelledby', 'inline-graph-title');
    const legend = element('p', { className: 'muted legend' });
    legend.innerHTML = `Edges: <b style="color:${DECISION_COLORS.inlined}">inlined</b>, <b style="color:${DECISION_COLORS.kept}">kept as calls</b>, `
      + `<b style="color:${DECISION_COLORS.mixed}">some of the pair's sites inlined</b>, <b style="color:${DECISION_COLORS.current}">decided at this step</b>. `
      + 'Nodes: callers left of callees, sized by dynamic calls (blue static, purple external). Click an edge to inline or keep its calls, a function to list its call sites; drag and scroll to pan and zoom.';
    this.graphEl = element('div', { id: 'inline-graph', className: 'chart graph' });
    this.status = element('p', { id: 'inline-status', className: 'muted' });
    const button = (id, text, action) => {
      const b = element('button', { type: 'button', id, textContent: text });
      b.addEventListener('click', action);
      return b;
    };
    const from = (name) => () => this.#startFrom(name);
    this.buttons = element('div', { className: 'buttons' },
      button('inline-follow', 'Follow the episode', () => { this.hand = null; this.#redraw(); }),
      button('inline-from-oz', 'Start from clang -Oz', from('oz')),
      button('inline-from-o2', 'Start from clang -O2', from('o2')),
      button('inline-from-never', 'Inline nothing', from('never')));
    this.table = element('table', { id: 'inline-figures', className: 'figures-table' });
    this.sites = element('div', { id: 'inline-sites' });
    section.append(element('h2', { id: 'inline-graph-title', textContent: 'The call graph and its decisions (the cost model)' }),
      legend, this.graphEl, this.status, this.buttons, this.table, this.sites);
    container.append(section);
    this.chart = callGraphChart(this.graphEl, {
      onEdge: (pair) => this.#toggle(pair.sites),
      onNode: (f) => { this.selected = f; this.#redraw(); },
    });
  }

  // The run's step `cursor` shown (the charts' update).
  update(run, cursor) {
    const config = estimateConfig(run.meta);
    const key = JSON.stringify(config);
    if (this.shown?.key !== key) {
      this.hand = null;
      this.selected = -1;
      this.loaded = null;
      this.source.load(config).then((loaded) => {
        if (this.shown?.key !== key) return;
        this.loaded = loaded;
        this.#redraw();
      }, (e) => { this.status.textContent = `The call graph could not be loaded: ${e.message}`; });
    }
    this.shown = { run, cursor, config, key };
    if (this.loaded) this.#redraw();
  }

  #episodeBits() {
    const { run, cursor } = this.shown;
    return episodeBits(run, cursor, this.loaded.graph);
  }

  #startFrom(name) {
    if (!this.loaded) return;
    const { graph } = this.loaded;
    this.hand = Uint8Array.from(graph.sites, (s) => (name === 'never' ? 0 : s[name] ? 1 : 0));
    this.#redraw();
  }

  // Inline every site of `sites` unless all are inlined, then keep them all.
  #toggle(sites) {
    if (!this.loaded) return;
    this.hand ??= this.#episodeBits();
    const all = sites.every((s) => this.hand[s]);
    for (const s of sites) this.hand[s] = all ? 0 : 1;
    this.#redraw();
  }

  #redraw() {
    if (!this.loaded || !this.shown) return;
    const { graph } = this.loaded;
    const bits = this.hand ?? this.#episodeBits();
    const current = this.hand ? -1 : decidedSite(this.shown.run, this.shown.cursor, graph);
    this.chart.update(graph, bits, { current, selected: this.selected });
    const inlined = bits.reduce((a, b) => a + b, 0);
    this.status.textContent = this.hand
      ? `Your decisions: ${count(inlined)} of ${count(graph.sites.length)} sites inlined (edit them on the graph; "Follow the episode" goes back).`
      : `The episode's decisions after step ${this.shown.cursor + 1}: ${count(inlined)} of ${count(graph.sites.length)} sites inlined (undecided sites count as calls).`;
    this.graphEl.dataset.mode = this.hand ? 'hand' : 'episode';
    this.#siteTable(graph, bits);
    this.#estimate(bits);
  }

  // One estimate in flight; while it runs only the newest wanted one waits.
  #estimate(bits) {
    this.pending = { config: this.shown.config, bits: Array.from(bits), hand: Boolean(this.hand) };
    if (this.busy) return;
    this.busy = true;
    const next = this.pending;
    this.pending = null;
    this.source.estimate(next.config, next.bits).then((e) => {
      if (JSON.stringify(next.config) === this.shown.key) this.#figures(e, next.hand);
    }, (e) => { this.status.textContent = `The estimate failed: ${e.message}`; }).finally(() => {
      this.busy = false;
      if (this.pending) this.#estimate(Uint8Array.from(this.pending.bits));
    });
  }

  #figures(shown, hand) {
    const { oz, o2 } = this.loaded;
    const row = (label, e, id) => element('tr', { id },
      element('th', { scope: 'row', textContent: label }),
      element('td', { textContent: count(e.inlined) }),
      element('td', { textContent: formatBytes(e.text_bytes), title: `${count(e.text_bytes)} bytes` }),
      element('td', { textContent: count(e.instructions) }),
      element('td', { textContent: ratio(e.text_vs_Oz) }),
      element('td', { textContent: ratio(e.instructions_vs_O2) }),
      element('td', { textContent: e.score.toFixed(4), className: e.score > 0 ? 'better' : '' }));
    const head = element('tr', {}, ...['decisions', 'inlined', 'text', 'instructions', 'text / -Oz', 'instr. / -O2', 'score']
      .map((h) => element('th', { scope: 'col', textContent: h })));
    this.table.replaceChildren(element('caption', { textContent: 'What the cost model estimates (score: 1 - cost against the env\'s baseline; above 0 beats it)' }),
      element('thead', {}, head),
      element('tbody', {}, row(hand ? 'yours' : 'the episode\'s', shown, 'inline-shown'), row('clang -Oz', oz, 'inline-oz'), row('clang -O2', o2, 'inline-o2')));
    this.table.dataset.text = String(shown.text_bytes);
    this.table.dataset.instructions = String(shown.instructions);
  }

  // The selected function's call sites, each with a box that inlines it.
  #siteTable(graph, bits) {
    if (this.selected < 0) {
      this.sites.replaceChildren();
      return;
    }
    const fn = graph.functions[this.selected];
    const rows = graph.sites.map((s, i) => [s, i]).filter(([s]) => s.caller === this.selected).map(([s, i]) => {
      const box = element('input', { type: 'checkbox', checked: Boolean(bits[i]) && !s.never, id: `inline-site-${i}`, disabled: Boolean(s.never) });
      box.setAttribute('aria-label', `inline the call to ${graph.functions[s.callee].name} on line ${s.line}`);
      box.addEventListener('change', () => this.#toggle([i]));
      const clang = s.never ? `never (${s.never})` : `${s.o2 ? '-O2 ' : ''}${s.oz ? '-Oz' : ''}` || '–';
      return element('tr', {}, element('td', {}, box), element('td', { textContent: graph.functions[s.callee].name }),
        element('td', { textContent: String(s.line) }), element('td', { textContent: count(s.calls) }),
        element('td', { textContent: clang }));
    });
    const head = element('tr', {}, ...['inline', 'callee', 'line', 'dynamic calls', 'clang inlines at']
      .map((h) => element('th', { scope: 'col', textContent: h })));
    this.sites.replaceChildren(element('h3', { textContent: `${fn.name}: ${rows.length} call sites` }),
      rows.length ? element('table', { className: 'figures-table' }, element('thead', {}, head), element('tbody', {}, ...rows))
        : element('p', { className: 'muted', textContent: 'It calls no function of the program.' }));
  }
}

// The player's chart: the call graph coloured by the episode's decisions at the step shown.
export function playerGraph(el, { client }) {
  const source = graphSource(client);
  const chart = callGraphChart(el);
  let graph = null;
  let key = null;
  let last = null;
  const draw = () => chart.update(graph, episodeBits(last.run, last.cursor, graph), { current: decidedSite(last.run, last.cursor, graph) });
  return {
    update(run, cursor) {
      last = { run, cursor };
      const config = estimateConfig(run.meta);
      const wanted = JSON.stringify(config);
      if (wanted !== key) {
        key = wanted;
        graph = null;
        source.load(config).then((loaded) => {
          if (key !== wanted) return;
          graph = loaded.graph;
          draw();
        });
      } else if (graph) draw();
    },
  };
}

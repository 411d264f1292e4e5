// The playground's panel on where training time goes (RL-Scope's question): a training run of
// the env shown, profiled here in the worker, drawn as a stacked bar beside the same run's
// shipped reports (the native tool and the npm bin under Node, data/profiles/), with its
// timeline and its table. An env without shipped runs is profiled on the form's config. Reports
// and Chrome traces of `sysgym profile` dropped on the page join the bars and fill the timeline.
import { timelineEvents } from './chrome_trace.js';
import { option } from './dom.js';
import { drawBars, drawTimeline } from './profile_charts.js';

const NETWORKS = [[32, 32], [256, 256]];
const OWN_STEPS = 2000; // a run on the form's config: a few seconds here with the small network

const count = (n) => n.toLocaleString('en');

function describe(run) {
  const on = run.file ? (run.settings.length ? `on ${run.settings.join(' ')}` : 'on the env\'s defaults') : 'on the form\'s config';
  return `${run.agent.toUpperCase()}, ${run.hidden.join('x')} network, ${count(run.steps)} steps, ${on}`;
}

export class ProfilePanel {
  #el;
  #client;
  #catalogue;
  #prepare;
  #showError;
  #env = null;
  #runs = [];
  #request = null;
  #shipped = new Map(); // file -> its fetched JSON
  #own = null; // the report of the selected run profiled here
  #dropped = []; // [{label, report}] from dropped files

  // `el`: {select, start, progress, status, bars, timeline, table}. `prepare(settings)`: the
  // env's config after the form took `settings` (null: the form's config as it is), its data
  // loaded into the worker.
  constructor(el, { client, catalogue, prepare, showError }) {
    this.#el = el;
    this.#client = client;
    this.#catalogue = catalogue;
    this.#prepare = prepare;
    this.#showError = showError;
    el.select.addEventListener('change', () => {
      this.#own = null;
      this.#draw();
    });
    el.start.addEventListener('click', () => this.start());
  }

  // The runs offered for env `id`: its shipped ones, or each agent that trains on it (dqn needs
  // Discrete actions, ppo MultiBinary or Discrete(2)) and network on the form's config.
  async setEnv(id) {
    this.#stop();
    this.#env = id;
    const shipped = (this.#catalogue.profiles ?? []).filter((p) => p.env === id)
      .sort((a, b) => a.agent.localeCompare(b.agent) || a.hidden[0] - b.hidden[0]);
    const agents = shipped.length ? [] : await this.#client.request('agents', { env: id })
      .catch(() => ['dqn', 'ppo']); // its example config did not make: training will say why
    if (this.#env !== id) return; // another env was chosen meanwhile
    this.#runs = shipped.length ? shipped
      : agents.flatMap((agent) => NETWORKS.map((hidden) => ({ env: id, agent, hidden, steps: OWN_STEPS, settings: [] })));
    this.#el.select.replaceChildren(...this.#runs.map((r, i) => option(String(i), describe(r))));
    this.#el.start.disabled = false;
    this.#el.table.textContent = '';
    this.#el.timeline.chartInstance?.clear();
    this.#el.timeline.dataset.events = '0';
    this.#el.progress.value = 0;
    this.#own = null;
    await this.#draw();
  }

  #selected() {
    return this.#runs[Number(this.#el.select.value)];
  }

  #setStatus(text) {
    this.#el.status.textContent = text;
  }

  async #shippedReports(run) {
    if (!run.file) return null;
    if (!this.#shipped.has(run.file)) {
      const response = await fetch(run.file);
      if (!response.ok) throw new Error(`${run.file}: HTTP ${response.status}`);
      this.#shipped.set(run.file, await response.json());
    }
    return this.#shipped.get(run.file);
  }

  // The selected run's shipped bars, the run profiled here, and the dropped reports.
  async #draw() {
    const run = this.#selected();
    const bars = [];
    try {
      const shipped = await this.#shippedReports(run);
      if (shipped) {
        bars.push({ label: 'native (shipped)', short: 'native', report: shipped.reports.native },
          { label: 'Node, npm bin (shipped)', short: 'Node', report: shipped.reports.node });
        if (!this.#own) this.#setStatus(`Shipped reports measured on ${shipped.machine}. Profile the run here to add this browser's bar and see its timeline.`);
      } else if (!this.#own) {
        this.#setStatus('No shipped report for this env: profile a run here to see where its time goes.');
      }
    } catch (e) {
      this.#showError(`profile: ${e.message}`);
    }
    if (this.#own) bars.push({ label: 'this browser', short: 'browser', report: this.#own });
    drawBars(this.#el.bars, [...bars, ...this.#dropped]);
    this.#el.bars.dataset.env = run.env; // whose bars these are: drawing waits for the shipped file
  }

  // Files from `sysgym profile`: reports (--json) become bars, a Chrome trace (--chrome-trace)
  // the timeline. Returns the problems, one per file that is neither.
  takeFiles(files) {
    const problems = [];
    for (const { name, json } of files) {
      if (Array.isArray(json.traceEvents)) {
        const events = timelineEvents(json);
        if (events.length === 0) problems.push(`${name}: a Chrome trace without complete ("X") events: nothing to draw`);
        else {
          drawTimeline(this.#el.timeline, events);
          this.#setStatus(`The timeline shows ${name}: ${count(events.length)} events.`);
        }
      } else if (json.corrected_wall_ms > 0 && json.categories_ms && typeof json.categories_ms === 'object') {
        this.#dropped.push({ label: `${name} (dropped)`, short: name.replace(/\.json$/i, '').slice(0, 9), report: json });
        this.#setStatus(`${name} added to the bars: ${json.command?.join(' ') ?? 'a profiled command'}.`);
      } else {
        problems.push(`${name}: not a report of sysgym profile --json (no corrected_wall_ms and categories_ms) nor a Chrome trace (no traceEvents)`);
      }
    }
    this.#draw();
    return problems;
  }

  #stop() {
    if (!this.#request) return;
    this.#client.cancel(this.#request.id);
    this.#request = null;
    this.#el.start.disabled = false;
  }

  // Profiles the selected run in the worker, as `sysgym profile -- train ...` does natively.
  async start() {
    const run = this.#selected();
    if (!run || this.#request) return;
    let config;
    try {
      config = await this.#prepare(run.file ? run.settings : null);
    } catch (e) {
      this.#showError(`profile: ${e.message}`);
      return;
    }
    this.#el.start.disabled = true;
    this.#el.progress.value = 0;
    this.#setStatus(`Training ${describe(run)} here, profiled…`);
    const args = { env: run.env, config, agent: run.agent, hidden: run.hidden, steps: run.steps, seed: 0 };
    const request = this.#client.start('profile', { run: args }, (event) => {
      if (this.#request === request && event.kind === 'progress') this.#el.progress.value = event.envSteps / event.steps;
    });
    this.#request = request;
    try {
      const result = await request.result;
      if (this.#request !== request || result.cancelled) return;
      this.#show(run, result);
    } catch (e) {
      if (this.#request === request) this.#showError(`profile: ${e.name}: ${e.message}`);
    } finally {
      if (this.#request === request) {
        this.#request = null;
        this.#el.start.disabled = false;
      }
    }
  }

  #show(run, { report, text, events }) {
    this.#el.progress.value = 1;
    this.#el.table.textContent = text;
    drawTimeline(this.#el.timeline, events);
    const boundary = report.crossings ? `, ${count(report.crossings.count)} calls into the module` : '';
    const drawn = events.filter((e) => e[4] === 0).length;
    this.#setStatus(`Profiled here: ${(report.corrected_wall_ms / 1000).toFixed(2)} s after correction, ${count(report.scopes)} scopes${boundary}` +
      `${report.scopes > drawn ? ` (the timeline shows the first ${count(drawn)} scopes)` : ''}.`);
    this.#own = report;
    this.#draw();
    document.body.dataset.profiled = run.env;
  }
}

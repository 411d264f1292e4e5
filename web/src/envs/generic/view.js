// What the shell shows of an env without a view of its own (and of any env with ?view=generic):
// every config key as a field, files added to the data store under their names, the return and
// the reward of each step, the env's primary metric, and each frame array of the current step
// as bars. A family starts here and writes a view when it wants to say more.
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

import { SchemaForm } from '../../shell/schema_form.js';
import { formatBytes, formatMs, formatPercent, showFigure } from '../../shell/format.js';
import { CHART_BASE, chart as makeChart, chartPanel } from '../../shell/dom.js';

echarts.use([BarChart, LineChart, AriaComponent, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

const BASE = CHART_BASE;
const COLORS = ['#3867d6', '#f0a202', '#2e9d5b', '#d9534f', '#6a00a8'];
const chart = (el) => makeChart(echarts, el);

// Six significant digits without trailing zeros (data-value keeps the exact number).
function formatNumber(v) {
  return Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6)));
}

// Summary keys as people read them, by the unit their name ends in (every family names its
// keys so: iteration_ms, fast_bytes, final_gflops, gap_closed, speedup): [pattern, format].
const UNITS = [
  [/_ms$/, formatMs],
  [/_bytes$/, formatBytes],
  [/gflops$/, (v) => v.toFixed(2)],
  [/^gap_closed$|_share$|occupancy$/, formatPercent],
  [/speedup$/, (v) => `${v.toFixed(2)}x`],
];

function displayName(key) {
  return key.replaceAll('_', ' ').replace(/\bgflops\b/, 'GFLOPS').replace(/ ms$/, ' (ms)');
}

// The reward of each step and the return so far.
function returnChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const steps = run.frames.slice(0, cursor + 1);
      c.setOption({
        ...BASE,
        legend: { top: 0 },
        grid: { left: 60, right: 16, top: 44, bottom: 40 },
        tooltip: { trigger: 'axis', valueFormatter: formatNumber },
        xAxis: { type: 'value', name: 'step', nameLocation: 'middle', nameGap: 26, min: 0, max: Math.max(run.length - 1, 1) },
        yAxis: { type: 'value', scale: true },
        series: [
          { type: 'line', name: 'return', showSymbol: false, itemStyle: { color: COLORS[0] }, data: steps.map((_, i) => [i, run.sumAt('return', i)]) },
          { type: 'bar', name: 'reward', itemStyle: { color: COLORS[1] }, barMaxWidth: 3, large: true, data: steps.map((f, i) => [i, f.reward]) },
        ],
      }, { notMerge: true });
    },
  };
}

// Each frame array of the current step, one series per array over its index.
function frameChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const frame = run.frames[cursor]?.frame ?? {};
      c.setOption({
        ...BASE,
        legend: { top: 0 },
        grid: { left: 60, right: 16, top: 44, bottom: 40 },
        tooltip: { trigger: 'axis', valueFormatter: formatNumber },
        xAxis: { type: 'category', name: 'index', nameLocation: 'middle', nameGap: 26 },
        yAxis: run.meta.frameLayout.map((_, i) => ({ type: 'value', show: i < 2, position: i === 0 ? 'left' : 'right' })),
        series: run.meta.frameLayout.map(({ name }, i) => ({ type: 'bar', name, yAxisIndex: i, itemStyle: { color: COLORS[i % COLORS.length] },
          data: Array.from(frame[name] ?? [], (v, j) => [String(j), v]) })),
      }, { notMerge: true });
    },
  };
}

// Every config key as a field; dropped files go to the data store under their own names, for a
// config key to name them.
class GenericForm {
  constructor({ data, fields }, schema, { client }) {
    this.client = client;
    data.replaceChildren();
    this.fields = new SchemaForm(fields, schema);
  }

  validate() {
    return this.fields.validate();
  }

  // The config the form gives, its data not loaded (the status line, a caption).
  config() {
    return this.fields.config();
  }

  async prepare() {
    return this.config();
  }

  dataLabel() {
    return JSON.stringify(this.fields.config());
  }

  lockToPolicy(file) {
    this.fields.lockToPolicy(file);
  }

  fixedKeys(file) {
    return this.fields.fixedKeys(file);
  }

  toParams(params) {
    this.fields.toParams(params);
  }

  fromParams(params) {
    this.fields.fromParams(params);
  }

  async takeData(files, showError) {
    try {
      const named = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      await this.client.request('data', { files: named }, null, named.map((f) => f.bytes.buffer));
      return `Added ${files.map((f) => f.name).join(', ')}: name them in the config.`;
    } catch (e) {
      showError(e.message);
      return null;
    }
  }

  async prepareReplay() {
    return 'its recorded config';
  }
}

export const genericView = {
  title: 'every env through its contract',
  intro: 'Run any registered env with any of its policies: the reward of each step, the return, and the arrays the env draws.',
  dropHint: 'data files (added under their names, for a config key to name)',
  stepName: 'step',

  length: () => null,
  firstStep: () => 0,

  form: (slots, schema, services) => new GenericForm(slots, schema, services),

  describeRun: (meta, policy) => `${policy} on ${meta.env}.`,

  figures(dl) {
    dl.insertAdjacentHTML('beforeend', `
      <div><dt>Return</dt><dd id="return">–</dd></div>
      <div><dt>Reward of the step</dt><dd id="reward">–</dd></div>
      <div><dt id="metric-name">Primary metric</dt><dd id="metric">–</dd></div>`);
    const $ = (id) => dl.querySelector(`#${id}`);
    return (run, cursor) => {
      showFigure($('return'), run.sumAt('return', cursor), formatNumber);
      showFigure($('reward'), run.frames[cursor]?.reward ?? 0, formatNumber);
      const key = run.meta.primaryMetric;
      $('metric-name').textContent = key ? `${key} (at the end)` : 'Primary metric (none declared)';
      if (key && run.isEnd(cursor)) showFigure($('metric'), run.summary[key], formatNumber);
      else $('metric').textContent = '–';
    };
  },

  charts(container) {
    return [returnChart(chartPanel(container, { id: 'return-chart', title: 'Reward per step and return' })),
      frameChart(chartPanel(container, { id: 'frame-chart', title: 'The frame arrays of the current step' }))];
  },

  label: displayName,
  format: (key) => UNITS.find(([pattern]) => pattern.test(key))?.[1] ?? formatNumber,
  caption: (config) => JSON.stringify(config),

  player: {
    chart: returnChart,
    figures: [['return', 'return', (run, cursor) => run.sumAt('return', cursor), formatNumber]],
    chartLabel: (label) => `Reward per step and return for ${label}.`,
    async request(attrs) {
      if (attrs.episode) return { type: 'replay', payload: { episode: attrs.episode }, data: attrs.episode.env };
      return { type: 'run', payload: { args: { env: attrs.env, config: attrs.config, policy: attrs.policy ?? 'random', policyConfig: attrs.policyConfig ?? {}, seed: 0 } }, data: attrs.env };
    },
  },
};

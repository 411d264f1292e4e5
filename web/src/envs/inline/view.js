// inline in the web shell: a program's call sites decided one by one (MLGO's protocol) on its
// call graph, the cost model's text size and instructions for the decisions at any step or for
// decisions set by hand, next to clang's (explorer.js); programs shipped, drawn from a split or
// dropped (programs.js).
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

import { CHART_BASE, chart as makeChart, chartPanel } from '../../shell/dom.js';
import { formatBytes, showFigure } from '../../shell/format.js';
import { genericView } from '../generic/view.js';
import { Explorer, playerGraph } from './explorer.js';
import { ensureProgram, InlineForm, playedProgram } from './programs.js';

echarts.use([LineChart, AriaComponent, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

const count = (n) => Math.round(n).toLocaleString('en-US');
const ratio = (v) => v.toFixed(4);

// Sites inlined after each step, against the steps taken (inlining everything is the diagonal).
function inlinedChart(el) {
  const c = makeChart(echarts, el);
  return {
    update(run, cursor) {
      const steps = run.frames.slice(0, cursor + 1);
      c.setOption({
        ...CHART_BASE,
        legend: { top: 0 },
        grid: { left: 60, right: 16, top: 44, bottom: 40 },
        tooltip: { trigger: 'axis', valueFormatter: count },
        xAxis: { type: 'value', name: 'call site (bottom-up)', nameLocation: 'middle', nameGap: 26, min: 0, max: Math.max(run.length, 1) },
        yAxis: { type: 'value', name: 'sites' },
        series: [
          { type: 'line', name: 'inlined so far', showSymbol: false, step: 'end', itemStyle: { color: '#2e9d5b' }, data: steps.map((f) => [f.info.site, f.info.inlined]) },
          { type: 'line', name: 'decided', showSymbol: false, lineStyle: { type: 'dashed' }, itemStyle: { color: '#8a8a8a' }, data: steps.map((f) => [f.info.site, f.info.site]) },
        ],
      }, { notMerge: true });
    },
  };
}

const FORMATS = { text_bytes: formatBytes, instructions: count, text_vs_Oz: ratio, instructions_vs_O2: ratio, score: ratio };

export const inlineView = {
  ...genericView,
  title: 'inline: which calls should the compiler inline?',
  intro: 'Decide, call site by call site from the leaves of the call graph up, whether clang inlines a call, as MLGO does; a cost model calibrated on real builds scores the program\'s text size or instructions against clang\'s own -Oz or -O2 decisions. Then set decisions by hand on the call graph and watch the estimates move.',
  dropHint: 'a program file from `sysgym inline extract` (JSON)',
  stepName: 'call site',
  defaultPolicy: 'size-threshold',
  comparisonReference: 'never',

  length: (meta) => meta.context?.sites ?? null,
  firstStep: () => 0,

  form: (slots, schema, services) => new InlineForm(slots, schema, services),

  describeRun: (meta, policy) => `${policy} on ${playedProgram(meta)}: ${count(meta.context.sites)} call sites bottom-up, `
    + `scored on ${meta.config.objective} against clang's -${meta.config.baseline === 'auto' ? (meta.config.objective === 'size' ? 'Oz' : 'O2') : meta.config.baseline} decisions.`,

  figures(dl) {
    dl.insertAdjacentHTML('beforeend', `
      <div><dt>Sites inlined so far</dt><dd id="inlined">–</dd></div>
      <div><dt>Text / clang -Oz's (at the end)</dt><dd id="text-vs-oz">–</dd></div>
      <div><dt>Instructions / clang -O2's (at the end)</dt><dd id="instr-vs-o2">–</dd></div>
      <div><dt>Score (at the end; above 0 beats the baseline)</dt><dd id="score">–</dd></div>`);
    const $ = (id) => dl.querySelector(`#${id}`);
    return (run, cursor) => {
      const frame = run.frames[cursor];
      if (frame) showFigure($('inlined'), frame.info.inlined, count);
      const end = run.isEnd(cursor);
      for (const [id, key] of [['text-vs-oz', 'text_vs_Oz'], ['instr-vs-o2', 'instructions_vs_O2'], ['score', 'score']]) {
        if (end) showFigure($(id), run.summary[key], ratio);
        else $(id).textContent = '–';
      }
    };
  },

  charts(container, services) {
    return [
      new Explorer(container, services),
      inlinedChart(chartPanel(container, { id: 'inlined-chart', title: 'Sites inlined after each decision' })),
    ];
  },

  format: (key) => FORMATS[key] ?? genericView.format(key),
  caption: (config) => `${config.program ?? 'kernels'}, objective ${config.objective ?? 'size'}`,

  player: {
    chart: playerGraph,
    figures: [['inlined', 'inlined', (run, cursor) => run.frames[cursor]?.info.inlined ?? 0, count]],
    legend: 'Green: inlined; grey: kept as calls; red: the site just decided.',
    chartLabel: (label) => `The call graph with the decisions of ${label}.`,
    async request(attrs, services) {
      await ensureProgram(services.client, services.catalogue, attrs.config?.program ?? 'kernels', services.base);
      return genericView.player.request({ ...attrs, policy: attrs.policy ?? 'size-threshold' }, services);
    },
  },
};

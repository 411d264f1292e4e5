// looptune in the web shell: the loop nest after each action as indented code with the cursor
// marked, GFLOPS per step (the cost model's, as the env rewards), every step's nest timed for
// real in this tab's worker (the executor in WebAssembly with 128-bit SIMD), and tuning by hand
// (panels.js). Config fields as in the generic view.
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

import { CHART_BASE, chart as makeChart, chartPanel } from '../../shell/dom.js';
import { showFigure } from '../../shell/format.js';
import { genericView } from '../generic/view.js';
import { ACTIONS, handPanel, loopsOf, measurePanel, nestCode } from './panels.js';

echarts.use([LineChart, AriaComponent, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

const COLORS = { gflops: '#3867d6', start: '#8a8a8a' };
const gflopsText = (v) => `${v.toFixed(2)} GFLOPS`;

// GFLOPS after each action, against the untuned nest's.
function gflopsChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const steps = run.frames.slice(0, cursor + 1);
      const start = run.meta.context.start_gflops;
      c.setOption({
        ...CHART_BASE,
        legend: { top: 0 },
        grid: { left: 60, right: 16, top: 44, bottom: 40 },
        tooltip: { trigger: 'axis', valueFormatter: (v) => gflopsText(v) },
        xAxis: { type: 'value', name: 'action', nameLocation: 'middle', nameGap: 26, min: 0, max: Math.max(run.length - 1, 1) },
        yAxis: { type: 'value', name: 'GFLOPS (model)' },
        series: [
          { type: 'line', name: 'GFLOPS', step: 'end', itemStyle: { color: COLORS.gflops }, data: steps.map((f, i) => [i, f.info.gflops]) },
          { type: 'line', name: 'untuned', showSymbol: false, lineStyle: { type: 'dashed' }, itemStyle: { color: COLORS.start }, data: steps.map((_, i) => [i, start]) },
        ],
      }, { notMerge: true });
    },
  };
}
const chart = (el) => makeChart(echarts, el);

// The nest shown, as code.
function codePanel(container) {
  const section = Object.assign(document.createElement('section'), { className: 'panel' });
  section.setAttribute('aria-labelledby', 'nest-code-title');
  const pre = Object.assign(document.createElement('pre'), { id: 'nest-code', className: 'nest-code' });
  section.append(Object.assign(document.createElement('h2'), { id: 'nest-code-title', textContent: 'The loop nest after this action' }), pre);
  container.append(section);
  return {
    update(run, cursor) {
      const frame = run.frames[cursor];
      if (!frame) return;
      pre.textContent = nestCode(loopsOf(frame.frame, run.meta.context), frame.info.cursor, run.meta.context);
      pre.dataset.step = String(cursor);
    },
  };
}

export const looptuneView = {
  ...genericView,
  title: 'looptune: which loop order and tiling run fastest?',
  intro: 'Tune a matmul\'s or a convolution\'s loop nest action by action, as LoopTune does: move the cursor, swap and split loops, and watch the code and its GFLOPS change; then time the nest for real in this tab.',
  stepName: 'action',
  defaultPolicy: 'anneal',
  comparisonReference: 'random',

  length: (meta) => meta.config?.episode_length ?? null,
  firstStep: () => 0,

  describeRun: (meta, policy) => `${policy} on ${meta.context.kernel}: ${meta.config.episode_length} actions from the untuned nest.`,

  figures(dl) {
    dl.insertAdjacentHTML('beforeend', `
      <div><dt>GFLOPS now (model)</dt><dd id="gflops">–</dd></div>
      <div><dt>Speedup so far</dt><dd id="speedup">–</dd></div>
      <div><dt>Last action</dt><dd id="action">–</dd></div>`);
    const $ = (id) => dl.querySelector(`#${id}`);
    return (run, cursor) => {
      const frame = run.frames[cursor];
      if (!frame) return;
      showFigure($('gflops'), frame.info.gflops, gflopsText);
      showFigure($('speedup'), frame.info.gflops / run.meta.context.start_gflops, (v) => `${v.toFixed(2)}x`);
      $('action').textContent = `${ACTIONS[frame.info.action] ?? frame.info.action}${frame.info.legal === 0 ? ' (illegal: nothing changed)' : ''}`;
    };
  },

  charts(container, services) {
    return [
      codePanel(container),
      gflopsChart(chartPanel(container, { id: 'gflops-chart', title: 'GFLOPS after each action (the cost model), against the untuned nest' })),
      measurePanel(container, services),
      handPanel(container, services),
    ];
  },

  caption: (config) => `${config.kernel ?? 'matmul:128x192x64'}, ${config.episode_length ?? 10} actions`,

  player: {
    chart: gflopsChart,
    figures: [['gflops', 'GFLOPS', (run, cursor) => run.frames[cursor]?.info.gflops ?? 0, gflopsText]],
    chartLabel: (label) => `GFLOPS after each action for ${label}.`,
    request: (attrs, services) => genericView.player.request({ ...attrs, policy: attrs.policy ?? 'anneal' }, services),
  },
};

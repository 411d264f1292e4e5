// looptune in the web shell: the loop nest after each action as indented code with the cursor
// marked, GFLOPS per step (the cost model's, as the env rewards), and a panel that times the
// untuned and the shown nest for real in this tab's worker (the executor in WebAssembly with
// 128-bit SIMD). Config fields as in the generic view.
import * as echarts from 'echarts/core';
import { LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

import { CHART_BASE, chart as makeChart, chartPanel } from '../../shell/dom.js';
import { showFigure } from '../../shell/format.js';
import { genericView } from '../generic/view.js';

echarts.use([LineChart, AriaComponent, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

const COLORS = { gflops: '#3867d6', start: '#8a8a8a' };
const ACTIONS = ['up', 'down', 'swap_up', 'swap_down', 'split_2', 'split_4', 'split_8', 'split_16', 'split_32', 'merge', 'unroll', 'vectorize'];
const gflopsText = (v) => `${v.toFixed(2)} GFLOPS`;

// The nest of a frame as loops [{var, size, tail, unroll, vectorize}] (the env's "loops" frame:
// rows of var + 1, size, tail, unroll, vectorize; a 0 var ends the nest).
export function loopsOf(frame, context) {
  const rows = frame?.loops ?? [];
  const loops = [];
  for (let i = 0; i + 4 < rows.length && rows[i] !== 0; i += 5) {
    loops.push({ var: context.vars[rows[i] - 1].name, size: rows[i + 1], tail: rows[i + 2], unroll: rows[i + 3] === 1, vectorize: rows[i + 4] === 1 });
  }
  return loops;
}

// The nest as C-like code, one loop per line, the cursor's loop marked.
export function nestCode(loops, cursor, context) {
  const [a, b, out] = context.tensors;
  const lines = loops.map((l, i) => {
    const notes = [l.tail ? `+ tail ${l.tail}` : '', l.unroll ? 'unroll' : '', l.vectorize ? 'vectorize' : ''].filter(Boolean).join(', ');
    return `${i === cursor ? '▶ ' : '  '}${'  '.repeat(i)}for ${l.var} in ${l.size}:${notes ? `  // ${notes}` : ''}`;
  });
  lines.push(`  ${'  '.repeat(loops.length)}${out} += ${a} * ${b}`);
  return lines.join('\n');
}

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

// Times the untuned and the shown nest for real in the worker (sysgym.looptune.measure).
function measurePanel(container, { client }) {
  const section = Object.assign(document.createElement('section'), { className: 'panel' });
  section.setAttribute('aria-labelledby', 'measure-title');
  section.innerHTML = `<h2 id="measure-title">Measured in this tab</h2>
    <p><button type="button" id="measure">Measure the shown nest</button> <span id="measure-status" role="status"></span></p>
    <dl class="figures"><div><dt>Untuned</dt><dd id="measured-before">–</dd></div>
    <div><dt>Shown nest</dt><dd id="measured-after">–</dd></div><div><dt>Speedup measured</dt><dd id="measured-speedup">–</dd></div></dl>`;
  container.append(section);
  const $ = (id) => section.querySelector(`#${id}`);
  let shown = null;
  $('measure').addEventListener('click', async () => {
    if (!shown) return;
    const { run, cursor } = shown;
    const kernel = run.meta.context.kernel;
    $('measure').disabled = true;
    $('measure-status').textContent = `Timing ${kernel} in WebAssembly…`;
    try {
      const before = await client.request('extra', { family: 'looptune', method: 'measure', args: [{ kernel }] });
      const after = await client.request('extra', { family: 'looptune', method: 'measure', args: [{ kernel, loops: loopsOf(run.frames[cursor].frame, run.meta.context) }] });
      showFigure($('measured-before'), before.gflops, gflopsText);
      showFigure($('measured-after'), after.gflops, gflopsText);
      showFigure($('measured-speedup'), after.gflops / before.gflops, (v) => `${v.toFixed(2)}x`);
      $('measure-status').textContent = `${after.micro_kernel}, the fastest of ${after.runs} runs (the model says ${gflopsText(after.model_gflops)} on this project's machine).`;
    } catch (e) {
      $('measure-status').textContent = `Measuring failed: ${e.message}`;
    } finally {
      $('measure').disabled = false;
    }
  });
  return {
    update(run, cursor) {
      shown = run.frames[cursor] ? { run, cursor } : null;
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

// tensorplace in the web shell: an iteration's kernels as the steps, with fast memory in use
// against the limit, each kernel's time and the moves before it, and the iteration so far against
// the all-fast and all-slow bounds. Config fields and data files as in the generic view.
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

import { CHART_BASE, chart as makeChart, chartPanel } from '../../shell/dom.js';
import { formatBytes, formatMs, formatPercent, showFigure } from '../../shell/format.js';
import { genericView } from '../generic/view.js';
import { ilpPanel, sweepPanel } from './ilp_panels.js';

echarts.use([BarChart, LineChart, AriaComponent, GridComponent, LegendComponent, MarkLineComponent, TooltipComponent, CanvasRenderer]);

const COLORS = { used: '#2e9d5b', limit: '#d9534f', kernel: '#3867d6', move: '#f0a202', fast: '#2e9d5b', slow: '#8a8a8a' };
const MIB = 1024 * 1024;
const chart = (el) => makeChart(echarts, el);

// The first `cursor + 1` kernels' info as [kernel, value] points.
const points = (run, cursor, value) => run.frames.slice(0, cursor + 1).map((f) => [f.info.kernel, value(f)]);

// The kernel axis spans the iteration; `top`, when given, keeps a reference line in view (ECharts
// fits the axis to the data only).
const axes = (run, name, top) => ({
  xAxis: { type: 'value', name: 'kernel', nameLocation: 'middle', nameGap: 26, min: 0, max: Math.max((run.meta.facts.kernels ?? 1) - 1, 1) },
  yAxis: { type: 'value', name, scale: false, max: top === undefined ? undefined : (extent) => roundUp(Math.max(extent.max, top * 1.08)) },
});

// Up to two significant digits, for an axis's top.
function roundUp(v) {
  const step = 10 ** Math.max(0, Math.floor(Math.log10(v)) - 1);
  return Math.ceil(v / step) * step;
}

// Fast memory in use after each kernel, against the limit (the env never exceeds it).
function capacityChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const limit = run.meta.facts.fast_limit_bytes / MIB;
      c.setOption({
        ...CHART_BASE,
        legend: { top: 0 },
        grid: { left: 64, right: 44, top: 44, bottom: 40 },
        tooltip: { trigger: 'axis', valueFormatter: (v) => formatBytes(v * MIB) },
        ...axes(run, 'MiB', limit),
        series: [{
          type: 'line', name: 'fast memory in use', step: 'end', showSymbol: false, areaStyle: { opacity: 0.2 },
          itemStyle: { color: COLORS.used }, data: points(run, cursor, (f) => f.info.fast_bytes / MIB),
          markLine: { symbol: 'none', silent: true, lineStyle: { color: COLORS.limit, type: 'dashed' },
            label: { formatter: 'limit' }, data: [{ yAxis: limit, name: 'limit' }] },
        }],
      }, { notMerge: true });
    },
  };
}

// Each kernel's time and the moves it waited for, stacked.
function kernelTimeChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      c.setOption({
        ...CHART_BASE,
        legend: { top: 0 },
        grid: { left: 64, right: 16, top: 44, bottom: 40 },
        tooltip: { trigger: 'axis', valueFormatter: formatMs },
        ...axes(run, 'ms'),
        series: [
          { type: 'bar', name: 'kernel', stack: 'time', large: true, barMaxWidth: 6, itemStyle: { color: COLORS.kernel }, data: points(run, cursor, (f) => f.info.kernel_ms) },
          { type: 'bar', name: 'moves', stack: 'time', large: true, barMaxWidth: 6, itemStyle: { color: COLORS.move }, data: points(run, cursor, (f) => f.info.move_ms) },
        ],
      }, { notMerge: true });
    },
  };
}

// The iteration so far, with the all-fast and all-slow iterations' totals as the bounds.
function iterationChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const { all_fast_ms: fast, all_slow_ms: slow } = run.meta.facts;
      const bound = (value, name, color) => ({ yAxis: value, name, lineStyle: { color, type: 'dashed' }, label: { formatter: name } });
      c.setOption({
        ...CHART_BASE,
        legend: { top: 0 },
        grid: { left: 64, right: 70, top: 44, bottom: 40 },
        tooltip: { trigger: 'axis', valueFormatter: formatMs },
        ...axes(run, 'ms', slow),
        series: [{
          type: 'line', name: 'iteration so far', showSymbol: false, itemStyle: { color: COLORS.kernel },
          data: run.frames.slice(0, cursor + 1).map((f, i) => [f.info.kernel, run.sumAt('step_ms', i)]),
          markLine: { symbol: 'none', silent: true, data: [bound(fast, 'all fast', COLORS.fast), bound(slow, 'all slow', COLORS.slow)] },
        }],
      }, { notMerge: true });
    },
  };
}

const FIGURES = `
  <div><dt>Iteration so far</dt><dd id="iteration-ms">–</dd></div>
  <div><dt>All fast / all slow</dt><dd id="bounds-ms">–</dd></div>
  <div><dt>Moves so far</dt><dd id="move-ms">–</dd></div>
  <div><dt>Fast memory in use</dt><dd id="fast-bytes">–</dd></div>
  <div><dt>Slowdown (at the end)</dt><dd id="slowdown">–</dd></div>
  <div><dt>Gap closed (at the end)</dt><dd id="gap-closed">–</dd></div>`;

const LABELS = { iteration_ms: 'iteration', move_ms: 'moves', bytes_to_fast: 'copied to fast', refused_bytes: 'refused' };

export const tensorplaceView = {
  ...genericView,
  title: 'tensorplace: which tensors live in fast memory?',
  intro: 'Run one training iteration of a DNN kernel by kernel and watch a policy keep its tensors in a small fast memory (DRAM, or GPU memory) or in slow memory (Optane, or host memory), as AutoTM does with an ILP.',
  stepName: 'kernel',
  defaultPolicy: 'first-touch',
  comparisonReference: 'all-slow',

  length: (meta) => meta.facts?.kernels ?? null,
  firstStep: () => 0,

  describeRun: (meta, policy) => `${policy} on ${meta.facts.model} at batch ${meta.facts.batch}: ${meta.facts.kernels} kernels, fast memory ${formatBytes(meta.facts.fast_limit_bytes)} of ${formatBytes(meta.facts.peak_live_bytes)} peak.`,

  figures(dl) {
    dl.insertAdjacentHTML('beforeend', FIGURES);
    const $ = (id) => dl.querySelector(`#${id}`);
    return (run, cursor) => {
      showFigure($('iteration-ms'), run.sumAt('step_ms', cursor), formatMs);
      $('bounds-ms').textContent = `${formatMs(run.meta.facts.all_fast_ms)} / ${formatMs(run.meta.facts.all_slow_ms)}`;
      showFigure($('move-ms'), run.sumAt('move_ms', cursor), formatMs);
      const frame = run.frames[cursor];
      showFigure($('fast-bytes'), frame ? frame.info.fast_bytes : 0, formatBytes);
      const end = run.isEnd(cursor);
      if (end) {
        showFigure($('slowdown'), run.summary.slowdown, (v) => v.toFixed(3));
        showFigure($('gap-closed'), run.summary.gap_closed, formatPercent);
      } else {
        $('slowdown').textContent = '–';
        $('gap-closed').textContent = '–';
      }
    };
  },

  charts(container, services) {
    return [
      capacityChart(chartPanel(container, { id: 'capacity-chart', title: 'Fast memory in use after each kernel, against the limit' })),
      kernelTimeChart(chartPanel(container, { id: 'kernel-time-chart', title: 'Time per kernel: the kernel and the moves before it' })),
      iterationChart(chartPanel(container, { id: 'iteration-chart', title: 'The iteration so far, against all fast and all slow' })),
      ilpPanel(container, services),
      sweepPanel(container, services),
    ];
  },

  label: (key) => LABELS[key] ?? key.replaceAll('_', ' '),
  format(key) {
    if (key.endsWith('_ms')) return formatMs;
    if (key === 'gap_closed') return formatPercent;
    if (key.includes('bytes')) return formatBytes;
    return genericView.format(key);
  },
  caption: (config) => `${config.model ?? 'resnet50'} at batch ${config.batch ?? 'default'}, fast memory ${config.fast_memory ?? 'default'}`,

  player: {
    chart: capacityChart,
    figures: [['iteration', 'iteration', (run, cursor) => run.sumAt('step_ms', cursor), formatMs],
      ['moves', 'moves', (run, cursor) => run.sumAt('move_ms', cursor), formatMs]],
    chartLabel: (label) => `Fast memory in use after each kernel against the limit for ${label}.`,
    // The generic view's request, with first-touch as the default policy.
    request: (attrs, services) => genericView.player.request({ ...attrs, policy: attrs.policy ?? 'first-touch' }, services),
  },
};

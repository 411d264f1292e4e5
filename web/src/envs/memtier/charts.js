// memtier's charts (Apache ECharts, canvas): what each shows is documented at its factory;
// update(run, cursor) redraws for the windows up to `cursor`. A window's info holds its times
// (t_ddr_ms, t_hbm_ms, window_ms, migration_ms); its frame the bins' samples and residency.
import * as echarts from 'echarts/core';
import { BarChart, HeatmapChart, LineChart } from 'echarts/charts';
import {
  AriaComponent, GridComponent, LegendComponent, MarkLineComponent, TitleComponent, TooltipComponent,
  VisualMapComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

import { formatBytes, formatMs, formatPercent } from '../../shell/format.js';
import { CHART_BASE, chart as makeChart } from '../../shell/dom.js';

echarts.use([
  BarChart, HeatmapChart, LineChart, AriaComponent, GridComponent, LegendComponent, MarkLineComponent,
  TitleComponent, TooltipComponent, VisualMapComponent, CanvasRenderer,
]);

const COLORS = { ddr: '#d9534f', hbm: '#2e9d5b', policy: '#3867d6', migration: '#f0a202', resident: '#00e68c' };
const HEAT = ['#0d0887', '#6a00a8', '#b12a90', '#e16462', '#fca636', '#f0f921'];
const BASE = CHART_BASE;
const chart = (el) => makeChart(echarts, el);

function windowsOf(run, cursor) {
  return run.frames.slice(0, cursor + 1);
}

// A line over windows: `points` are [window, value] pairs.
function lineSeries(name, color, points, dashed = false) {
  return { type: 'line', name, showSymbol: false, sampling: 'lttb', itemStyle: { color },
    lineStyle: { color, width: 1.3, type: dashed ? 'dashed' : 'solid' }, data: points };
}

// Where window `w` starts in the all-DDR run (ms): the time a window stands for.
function elapsedMs(run, w) {
  const i = w - run.meta.context.start - 1;
  return i < 0 ? 0 : run.cumulative.t_ddr_ms?.[i] ?? NaN;
}

// A window axis label: where the window starts in the all-DDR run (the window's number is in
// the tooltips and the playback controls).
function windowLabel(run, w) {
  const ms = elapsedMs(run, Number(w));
  return Number.isFinite(ms) ? `${ms.toFixed(ms < 10 ? 1 : 0)} ms` : String(w);
}

const WINDOW_AXIS_NAME = 'time in the all-DDR run (one step per window)';

// Milliseconds over the episode's windows, with a legend and an axis tooltip.
function timeOptions(run, series, yAxis = {}) {
  return {
    ...BASE,
    legend: { top: 0 },
    grid: { left: 60, right: 16, top: 44, bottom: 44 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => formatMs(v),
      axisPointer: { label: { formatter: ({ value }) => `window ${value}, from ${formatMs(elapsedMs(run, value))}` } } },
    xAxis: { type: 'value', name: WINDOW_AXIS_NAME, nameLocation: 'middle', nameGap: 26, min: run.meta.context.start,
      max: run.meta.context.start + run.length - 1, axisLabel: { formatter: (w) => windowLabel(run, w), hideOverlap: true } },
    yAxis: { type: 'value', name: 'ms', ...yAxis },
    series,
  };
}

// Windows grouped into at most `columns` heatmap columns. Per column and bin: log2(1 + mean
// samples per window) (the colour's depth), the mean share of the bin's bytes in HBM, and the
// mean samples. A cell is HBM's when at least half the bin was in HBM over its windows (drawn in
// greens, also without samples), else DDR's (greys, only with samples): one opaque colour per
// cell, so residency stays visible at any heat.
export function heatmapCells(run, upTo, columns) {
  const group = Math.max(1, Math.ceil(run.length / columns));
  const bins = run.meta.context.bins.length;
  const ddr = [];
  const hbm = [];
  let max = 0;
  for (let first = 0; first <= upTo; first += group) {
    const last = Math.min(first + group - 1, upTo);
    const n = last - first + 1;
    const column = first / group;
    for (let b = 0; b < bins; ++b) {
      let samples = 0;
      let share = 0;
      for (let w = first; w <= last; ++w) {
        samples += run.frames[w].frame.histogram[b];
        share += run.frames[w].frame.resident[b];
      }
      const v = Math.log2(1 + samples / n);
      const cell = [column, b, v, share / n, samples / n];
      if (share / n >= 0.5) hbm.push(cell);
      else if (v > 0) ddr.push(cell);
      max = Math.max(max, v);
    }
  }
  return { ddr, hbm, group, columns: Math.ceil(run.length / group), max };
}

const DDR_SCALE = ['#e9ebef', '#9aa1ad', '#4a5060', '#11141b'];
const HBM_SCALE = ['#c9f7db', '#54d68a', '#139a4c', '#064d24'];

// A colour bar of one scale, labelled in samples per window.
function colourBar(seriesIndex, colors, max, title, top) {
  const samples = (v) => (2 ** v - 1).toFixed(2 ** v - 1 < 10 ? 1 : 0);
  return { type: 'continuous', seriesIndex, dimension: 2, min: 0, max, inRange: { color: colors }, right: 4, top,
    itemHeight: 60, itemWidth: 12, calculable: false, text: [`${title}: ${samples(max)}`, '0'],
    textStyle: { fontSize: 10 }, formatter: samples };
}

// Address (bins, low to high) x time (windows): samples per window as the colour's depth, greys
// for data in DDR and greens for data in HBM, a line at the current window.
export function heatmapChart(el, { compact = false, maxColumns = 400 } = {}) {
  const c = chart(el);
  return {
    update(run, cursor) {
      // Columns at least 3 px wide: narrower ones blend into their neighbours when drawn.
      const grid = compact ? { left: 8, right: 8, top: 8, bottom: 20 } : { left: 110, right: 96, top: 28, bottom: 56 };
      const width = el.clientWidth - grid.left - grid.right;
      const cells = heatmapCells(run, cursor, width > 0 ? Math.min(maxColumns, Math.floor(width / 3)) : maxColumns);
      el.dataset.columnGroup = String(cells.group); // windows per column (tests read the cells)
      const start = run.meta.context.start;
      const columns = Array.from({ length: cells.columns }, (_, i) => String(start + i * cells.group));
      const bins = run.meta.context.bins;
      const max = Math.max(cells.max, 1);
      const series = (name, data) => ({ type: 'heatmap', name, data, progressive: 0 });
      c.setOption({
        ...BASE,
        aria: { enabled: true, label: { description: `Accesses per address bin over ${run.length} windows; green marks data in HBM, grey data in DDR.` } },
        grid,
        tooltip: compact ? undefined : {
          formatter: (p) => {
            const [column, bin, , share, mean] = p.value;
            const w = start + column * cells.group;
            const span = cells.group > 1 ? `windows ${w}-${Math.min(w + cells.group - 1, start + run.length - 1)}` : `window ${w}`;
            return `${span}, from ${formatMs(elapsedMs(run, w))} of the all-DDR run<br>` +
              `bin ${bin}: ${bins[bin].lo}-${bins[bin].hi} (${formatBytes(bins[bin].bytes)})<br>` +
              `${mean.toFixed(mean < 10 ? 2 : 0)} samples per window, ${(share * 100).toFixed(0)} % of the bin in HBM`;
          },
        },
        xAxis: { type: 'category', data: columns, name: compact ? '' : WINDOW_AXIS_NAME, nameLocation: 'middle', nameGap: 28,
          axisTick: { show: false }, axisLabel: { formatter: (w) => windowLabel(run, w), hideOverlap: true, fontSize: compact ? 9 : 12 } },
        yAxis: { type: 'category', data: bins.map((b) => b.lo), name: compact ? '' : 'address (bin start)', nameGap: 10,
          show: !compact, axisTick: { show: false },
          axisLabel: { fontSize: 10, interval: Math.max(0, Math.ceil(bins.length / 12) - 1) } },
        visualMap: [colourBar(0, DDR_SCALE, max, 'DDR', 8), colourBar(1, HBM_SCALE, max, 'HBM', 128)]
          .map((v) => ({ ...v, show: !compact })),
        series: [
          series('in DDR', cells.ddr),
          { ...series('in HBM', cells.hbm),
            markLine: { silent: true, symbol: 'none', lineStyle: { color: '#d9534f', width: 1 }, label: { show: false },
              data: [{ xAxis: Math.floor(cursor / cells.group) }] } },
        ],
      }, { notMerge: true });
    },
  };
}

// Per window: the policy's estimated time between the all-DDR and all-HBM bounds, and migration.
export function windowTimeChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const frames = windowsOf(run, cursor);
      const points = (value) => frames.map((f) => [f.info.window, value(f)]);
      c.setOption(timeOptions(run, [
        lineSeries('all DDR', COLORS.ddr, points((f) => f.info.t_ddr_ms), true),
        lineSeries('all HBM', COLORS.hbm, points((f) => f.info.t_hbm_ms), true),
        lineSeries('policy', COLORS.policy, points((f) => f.info.window_ms)),
        { type: 'bar', name: 'migration', itemStyle: { color: COLORS.migration }, barMaxWidth: 3, large: true,
          data: points((f) => f.info.migration_ms) },
      ], { scale: true }), { notMerge: true });
    },
  };
}

// Cumulative time of the policy (estimated + migration) against the bounds, and migration alone.
export function cumulativeChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const cu = run.cumulative;
      const ids = windowsOf(run, cursor).map((f) => f.info.window);
      const points = (value) => ids.map((w, i) => [w, value(i)]);
      c.setOption(timeOptions(run, [
        lineSeries('all DDR', COLORS.ddr, points((i) => cu.t_ddr_ms[i]), true),
        lineSeries('all HBM', COLORS.hbm, points((i) => cu.t_hbm_ms[i]), true),
        lineSeries('policy total', COLORS.policy, points((i) => cu.window_ms[i] + cu.migration_ms[i])),
        lineSeries('migration', COLORS.migration, points((i) => cu.migration_ms[i])),
      ]), { notMerge: true });
    },
  };
}

// The current window per bin: the share of its bytes in HBM, and the share of the window's samples.
export function residentChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const f = run.frames[cursor];
      const total = f ? f.frame.histogram.reduce((a, b) => a + b, 0) : 0;
      const bins = run.meta.context.bins.map((_, i) => i);
      c.setOption({
        ...BASE,
        legend: { top: 0 },
        grid: { left: 48, right: 16, top: 32, bottom: 40 },
        tooltip: { trigger: 'axis', valueFormatter: (v) => `${(v * 100).toFixed(1)} %` },
        xAxis: { type: 'category', data: bins, name: 'bin', nameLocation: 'middle', nameGap: 26 },
        yAxis: { type: 'value', min: 0, max: 1, axisLabel: { formatter: (v) => `${v * 100} %` } },
        series: [
          { type: 'bar', name: 'in HBM', itemStyle: { color: COLORS.resident }, data: f ? Array.from(f.frame.resident) : [] },
          { type: 'line', name: 'share of samples', showSymbol: false, itemStyle: { color: COLORS.policy },
            data: f ? Array.from(f.frame.histogram, (n) => (total ? n / total : 0)) : [] },
        ],
      }, { notMerge: true });
    },
  };
}

// Per window: the share of HBM in use, and the bytes the policy moved (promoted + demoted).
export function occupancyChart(el) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const frames = windowsOf(run, cursor);
      const options = timeOptions(run, [
        lineSeries('HBM occupancy', COLORS.hbm, frames.map((f) => [f.info.window, f.info.hbm_occupancy])),
        { type: 'bar', name: 'bytes moved', yAxisIndex: 1, itemStyle: { color: COLORS.migration }, barMaxWidth: 3, large: true,
          data: frames.map((f) => [f.info.window, f.info.promoted_bytes + f.info.demoted_bytes]) },
      ]);
      options.tooltip.valueFormatter = undefined;
      options.tooltip.formatter = (params) => {
        const w = params[0]?.value[0];
        const lines = params.map((p) => `${p.marker}${p.seriesName}: ${p.seriesIndex === 0 ? formatPercent(p.value[1]) : formatBytes(p.value[1])}`);
        return [`window ${w}, from ${formatMs(elapsedMs(run, w))}`, ...lines].join('<br>');
      };
      options.grid.right = 64;
      options.yAxis = [{ type: 'value', name: 'occupancy', min: 0, max: 1, axisLabel: { formatter: (v) => `${Math.round(v * 100)} %` } },
        { type: 'value', name: 'moved', axisLabel: { formatter: (v) => formatBytes(v) }, splitLine: { show: false } }];
      c.setOption(options, { notMerge: true });
    },
  };
}

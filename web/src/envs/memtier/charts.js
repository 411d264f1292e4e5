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

import { formatMs } from '../../shell/format.js';
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

// Milliseconds over the episode's windows, with a legend and an axis tooltip.
function timeOptions(run, series, yAxis = {}) {
  return {
    ...BASE,
    legend: { top: 0 },
    grid: { left: 60, right: 16, top: 44, bottom: 40 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => formatMs(v) },
    xAxis: { type: 'value', name: 'window', nameLocation: 'middle', nameGap: 26, min: run.meta.context.start,
      max: run.meta.context.start + run.length - 1 },
    yAxis: { type: 'value', name: 'ms', ...yAxis },
    series,
  };
}

// Windows grouped into at most `columns` heatmap columns: per column and bin, log2(1 + mean
// samples per window) and the mean resident fraction, over the windows up to `upTo`.
export function heatmapCells(run, upTo, columns) {
  const group = Math.max(1, Math.ceil(run.length / columns));
  const bins = run.meta.context.bins.length;
  const heat = [];
  const resident = [];
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
      if (v > 0) heat.push([column, b, v]);
      if (share > 0) resident.push([column, b, share / n]);
      max = Math.max(max, v);
    }
  }
  return { heat, resident, group, columns: Math.ceil(run.length / group), max };
}

// Address (bins, low to high) x time (windows): log2(1 + samples per window) in colour, the
// bins' HBM-resident share overlaid in green, a line at the current window.
export function heatmapChart(el, { compact = false, maxColumns = 400 } = {}) {
  const c = chart(el);
  return {
    update(run, cursor) {
      const cells = heatmapCells(run, cursor, maxColumns);
      const columns = Array.from({ length: cells.columns }, (_, i) => String(run.meta.context.start + i * cells.group));
      const rows = run.meta.context.bins.map((b) => b.lo);
      c.setOption({
        ...BASE,
        aria: { enabled: true, label: { description: `Accesses per address bin over ${run.length} windows; green marks data in HBM.` } },
        grid: compact ? { left: 8, right: 8, top: 8, bottom: 8 } : { left: 110, right: 70, top: 16, bottom: 48 },
        tooltip: compact ? undefined : {
          formatter: (p) => `window ${columns[p.value[0]]}, bin ${p.value[1]} (${rows[p.value[1]]})<br>` +
            (p.seriesIndex === 0 ? `log2(1 + samples/window) ${p.value[2].toFixed(2)}` : `resident ${(p.value[2] * 100).toFixed(0)} %`),
        },
        xAxis: { type: 'category', data: columns, name: compact ? '' : 'window', nameLocation: 'middle', nameGap: 28,
          show: !compact, axisTick: { show: false } },
        yAxis: { type: 'category', data: rows, name: compact ? '' : 'address bin', show: !compact, axisTick: { show: false },
          axisLabel: { fontSize: 10, interval: Math.max(0, Math.ceil(rows.length / 12) - 1) } },
        visualMap: [{ type: 'continuous', seriesIndex: 0, min: 0, max: Math.max(cells.max, 1), inRange: { color: HEAT },
          show: !compact, right: 0, top: 'middle', itemHeight: 120, text: ['hot', 'cold'], calculable: false }],
        series: [
          { type: 'heatmap', name: 'accesses', data: cells.heat, progressive: 0 },
          { type: 'heatmap', name: 'in HBM', progressive: 0,
            data: cells.resident.map(([x, y, share]) => ({ value: [x, y, share], itemStyle: { color: `rgba(0, 255, 120, ${0.1 + 0.4 * share})` } })),
            markLine: { silent: true, symbol: 'none', lineStyle: { color: '#fff', width: 1 }, label: { show: false },
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

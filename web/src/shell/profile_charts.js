// Where training time goes, drawn: one stacked bar per run (each category's share of the run's
// corrected wall time) and one run's timeline (the core's nested scopes by depth, the JS calls
// into the module on a row of their own), zoomable.
import * as echarts from 'echarts/core';
import { BarChart, CustomChart } from 'echarts/charts';
import { AriaComponent, DataZoomComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

import { CHART_BASE, chart } from './dom.js';

echarts.use([BarChart, CustomChart, AriaComponent, DataZoomComponent, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

// The profiler's categories (core/profiling/ops.hpp) and the time outside every scope.
export const OUTSIDE = 'outside scopes';
const COLOURS = {
  simulation: '#3867d6',
  inference: '#20bf6b',
  learning: '#eb3b5a',
  data: '#f7b731',
  framework: '#8854d0',
  'js-wasm boundary': '#0fb9b1',
  [OUTSIDE]: '#a5b1c2',
};
export const CATEGORIES = Object.keys(COLOURS);
const colour = (category) => COLOURS[category] ?? '#4b6584';

// A report's time per category in ms, with the time outside every scope (JS, argument parsing).
export function categoryTimes(report) {
  const times = Object.fromEntries(CATEGORIES.map((c) => [c, report.categories_ms?.[c] ?? 0]));
  times[OUTSIDE] = Math.max(0, report.unattributed_ms ?? 0);
  return times;
}

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;

// Narrower than this, the bars' labels take two short lines (a phone's screen).
const NARROW_PX = 600;

const isNarrow = (el) => el.clientWidth > 0 && el.clientWidth < NARROW_PX;

// `runs`: [{label, short, report}], drawn top to bottom (`short` labels a narrow chart). Drawn
// again when the chart's width crosses NARROW_PX (a phone turned, a window resized): ECharts'
// resize keeps the labels and margins the chart was drawn with.
export function drawBars(el, runs) {
  const c = el.chartInstance ?? chart(echarts, el);
  el.onChartResize = () => {
    if (isNarrow(el) !== el.barsNarrow) drawBars(el, runs);
  };
  const narrow = isNarrow(el);
  el.barsNarrow = narrow;
  const times = runs.map((r) => categoryTimes(r.report));
  // Shares of what the bar draws: the categories and the time outside scopes add up to the
  // corrected time, except where the timer's correction overshoots and the outside time, drawn as
  // none, is negative; a share of the drawn total keeps the bar at 100 % then too.
  const drawn = times.map((t) => Object.values(t).reduce((sum, ms) => sum + ms, 0));
  const share = (i, category) => (drawn[i] > 0 ? (100 * times[i][category]) / drawn[i] : 0);
  const label = (r) => (narrow ? `${r.short}\n${seconds(r.report.corrected_wall_ms)}` : `${r.label}: ${seconds(r.report.corrected_wall_ms)}`);
  c.setOption({
    ...CHART_BASE,
    legend: { top: 0, type: 'scroll' },
    grid: { left: narrow ? 70 : 190, right: 24, top: 36, bottom: 36 },
    tooltip: { trigger: 'item', formatter: (p) => `${runs[p.dataIndex].label}<br>${p.seriesName}: ${p.value.toFixed(1)} % ` +
      `(${times[p.dataIndex][p.seriesName].toFixed(1)} ms of ${seconds(runs[p.dataIndex].report.corrected_wall_ms)})` },
    xAxis: { type: 'value', max: 100, splitNumber: narrow ? 2 : 5, nameLocation: 'middle', nameGap: 24,
      name: narrow ? 'share of the run\'s time (%)' : 'share of the run\'s time (%), corrected for the profiler\'s own cost' },
    yAxis: { type: 'category', inverse: true, data: runs.map(label), axisLabel: { fontSize: 11, lineHeight: 14 } },
    series: CATEGORIES.map((category) => ({
      type: 'bar', name: category, stack: 'time', itemStyle: { color: colour(category) }, barMaxWidth: 28,
      data: runs.map((_, i) => share(i, category)),
    })),
  }, { notMerge: true });
  el.dataset.runs = String(runs.length);
}

// Rows for `events` ([name, category, start, duration, track]): the core's scopes at their
// nesting depth, the JS calls below them. Returns {rows: [label], items}.
function layOut(events) {
  const open = []; // ends of the scopes enclosing the current one
  const items = [];
  let depth = 0;
  for (const [name, category, start, ms, track] of events) {
    if (track !== 0) continue;
    while (open.length && open.at(-1) <= start) open.pop();
    items.push([open.length, start, start + ms, name, category]);
    open.push(start + ms);
    depth = Math.max(depth, open.length);
  }
  for (const [name, category, start, ms, track] of events) {
    if (track === 1) items.push([depth, start, start + ms, name, category]);
  }
  const rows = [...Array.from({ length: depth }, (_, i) => (i === 0 ? 'outermost scopes' : `depth ${i}`)), 'JS calls'];
  return { rows, items };
}

function renderSpan(params, api) {
  const row = api.value(0);
  const [x0, y] = api.coord([api.value(1), row]);
  const [x1] = api.coord([api.value(2), row]);
  const height = api.size([0, 1])[1] * 0.8;
  const box = params.coordSys;
  const shape = echarts.graphic.clipRectByRect({ x: x0, y: y - height / 2, width: Math.max(x1 - x0, 0.5), height },
    { x: box.x, y: box.y, width: box.width, height: box.height });
  return shape && { type: 'rect', shape, style: { fill: colour(api.value(4)) } };
}

export function drawTimeline(el, events) {
  const c = el.chartInstance ?? chart(echarts, el);
  const { rows, items } = layOut(events);
  c.setOption({
    ...CHART_BASE,
    grid: { left: 90, right: 24, top: 12, bottom: 84 },
    tooltip: { trigger: 'item', formatter: (p) => `${p.value[3]} (${p.value[4]})<br>${(p.value[2] - p.value[1]).toFixed(3)} ms at ${p.value[1].toFixed(1)} ms` },
    dataZoom: [{ type: 'slider', filterMode: 'weakFilter', bottom: 6, height: 24 }, { type: 'inside', filterMode: 'weakFilter' }],
    xAxis: { type: 'value', name: 'ms since the profile started', nameLocation: 'middle', nameGap: 24, scale: true },
    yAxis: { type: 'category', inverse: true, data: rows, axisLabel: { fontSize: 11 } },
    series: [{ type: 'custom', renderItem: renderSpan, encode: { x: [1, 2], y: 0 }, data: items, progressive: 4000 }],
  }, { notMerge: true });
  el.dataset.events = String(items.length);
}

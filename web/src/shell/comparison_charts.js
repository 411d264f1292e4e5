// The comparison as charts, beside its table: each policy's ranking figure as a bar (in the
// table's order, the chosen policy in its own colour) and every policy's return over the
// episode's steps, overlaid. Clicking a bar selects that policy, as clicking its row does.
import * as echarts from 'echarts/core';
import { BarChart, LineChart } from 'echarts/charts';
import { AriaComponent, GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

import { CHART_BASE, chart } from './dom.js';

echarts.use([BarChart, LineChart, AriaComponent, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

const CHOSEN = '#3867d6';

// The values an axis should span: all but at most two far outliers (a random policy's thousands
// of milliseconds would flatten the differences that matter). `worseIsHigher`: which end they
// sit at. Outliers are drawn clipped at the axis end, their value written beside them.
function typicalRange(values, worseIsHigher) {
  const v = [...values].sort((a, b) => (worseIsHigher ? a - b : b - a));
  while (v.length > 3) {
    const [best, next, extreme] = [v[0], v[v.length - 2], v[v.length - 1]];
    if (Math.abs(extreme - next) <= 2 * Math.abs(next - best) || next === best) break;
    v.pop();
  }
  return { lo: Math.min(...v), hi: Math.max(...v), clipped: values.length - v.length };
}

// An axis end a little beyond `value`, on the side away from `other`.
const pad = (value, other) => value + (value - other) * 0.08;
const OTHER = '#9aa1ad';
const ORACLE = '#c9ccd3';

// `onSelect(row)` is called with the row of a clicked bar.
export function comparisonCharts(barsEl, curvesEl, onSelect) {
  const bars = chart(echarts, barsEl);
  const curves = chart(echarts, curvesEl);
  let shown = [];
  bars.on('click', (p) => shown[p.dataIndex] && onSelect(shown[p.dataIndex]));
  return {
    // `rows`: the table's rows with summaries, best first; `key`: the ranking key.
    update(rows, { key, higherIsBetter, current, view, stepName }) {
      shown = rows.filter((r) => r.summary && key);
      const format = view.format(key);
      const name = view.label(key);
      const values = shown.map((r) => r.summary[key]);
      const range = values.length ? typicalRange(values, !higherIsBetter) : { lo: 0, hi: 1, clipped: 0 };
      // Totals of a few percent apart start the axis near them, not at 0 (the axis says so).
      const zoomed = range.lo > 0 && range.hi - range.lo < 0.5 * range.lo;
      const start = zoomed ? range.lo - (range.hi - range.lo) * 0.6 : Math.min(0, range.lo);
      const notes = [zoomed && 'axis not from 0', range.clipped && 'far outliers clipped'].filter(Boolean);
      bars.setOption({
        ...CHART_BASE,
        grid: { left: 150, right: 24, top: 8, bottom: 36 },
        tooltip: { trigger: 'item', formatter: (p) => `${shown[p.dataIndex].label}: ${name} ${format(p.value)}` },
        xAxis: { type: 'value', name: notes.length ? `${name} (${notes.join('; ')})` : name, nameLocation: 'middle', nameGap: 24,
          min: start, max: range.clipped ? pad(range.hi, start) : undefined,
          axisLabel: { formatter: (v) => format(v), hideOverlap: true } },
        yAxis: { type: 'category', inverse: true, data: shown.map((r) => r.label), axisLabel: { fontSize: 11 } },
        series: [{ type: 'bar', name, cursor: 'pointer', label: { show: true, position: 'insideRight', fontSize: 10, color: '#fff',
          formatter: (p) => format(p.value) }, data: shown.map((r) => ({ value: r.summary[key],
          itemStyle: { color: r.label === current ? CHOSEN : r.oracle ? ORACLE : OTHER },
          label: { color: r.oracle && r.label !== current ? '#1d2330' : '#fff' } })) }],
      }, { notMerge: true });
      // Curves relative to a reference policy when the view names one (memtier: all-ddr), so the
      // few units that separate good policies are not lost in a return of hundreds.
      const reference = shown.find((r) => r.policy === view.comparisonReference && r.returns)?.returns;
      const curveOf = (r) => (reference ? r.returns.map((v, i) => v - reference[i]) : r.returns);
      const withCurves = shown.filter((r) => r.returns);
      const ends = withCurves.map((r) => curveOf(r).at(-1));
      const span = ends.length ? typicalRange(ends, false) : { lo: 0, hi: 0, clipped: 0 };
      curves.setOption({
        ...CHART_BASE,
        legend: { type: 'scroll', top: 0 },
        grid: { left: 64, right: 16, top: 40, bottom: 36 },
        tooltip: { trigger: 'axis', valueFormatter: (v) => (typeof v === 'number' ? v.toPrecision(5) : v) },
        xAxis: { type: 'value', name: stepName, nameLocation: 'middle', nameGap: 24, min: 1 },
        yAxis: { type: 'value', name: reference ? `return so far, minus ${view.comparisonReference}'s` : 'return so far', scale: true,
          min: span.clipped ? pad(Math.min(span.lo, 0), Math.max(span.hi, 0)) : undefined,
          axisLabel: { formatter: (v) => Number(v.toPrecision(3)) } },
        series: withCurves.map((r) => ({ type: 'line', name: r.label, showSymbol: false, sampling: 'lttb',
          lineStyle: { width: r.label === current ? 2.5 : 1.2, type: r.oracle ? 'dashed' : 'solid' },
          data: curveOf(r).map((v, i) => [i + 1, v]) })),
      }, { notMerge: true });
      barsEl.dataset.bars = String(shown.length);
      curvesEl.dataset.curves = String(withCurves.length);
    },
    clear() {
      shown = [];
      bars.clear();
      curves.clear();
      barsEl.dataset.bars = '0';
      curvesEl.dataset.curves = '0';
    },
  };
}

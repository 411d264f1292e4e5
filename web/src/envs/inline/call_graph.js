// inline's call graph as a chart: functions as nodes sized by their dynamic calls, one edge per
// caller -> callee pair coloured by the decisions of its call sites, callers left of their callees.
// The layout is computed once per program (columns by height in the call graph, from the env's
// bottom-up order), so decisions changing never move a node.
import * as echarts from 'echarts/core';
import { GraphChart } from 'echarts/charts';
import { AriaComponent, TooltipComponent } from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

import { CHART_BASE, chart as makeChart } from '../../shell/dom.js';

echarts.use([GraphChart, AriaComponent, TooltipComponent, CanvasRenderer]);

export const DECISION_COLORS = { inlined: '#2e9d5b', kept: '#aab1bf', mixed: '#f0a202', current: '#d9534f' };
const calls = (n) => Math.round(n).toLocaleString('en-US');

// The sites of each caller -> callee pair, recursion (caller = callee) left out of the drawing.
// A pair lists the sites a decision can inline: a call clang never inlines (`never`: varargs,
// noinline...) is drawn, kept.
function pairsOf(graph) {
  const pairs = new Map();
  graph.sites.forEach((s, i) => {
    if (s.caller === s.callee) return;
    const key = `${s.caller}>${s.callee}`;
    const pair = pairs.get(key) ?? { key, caller: s.caller, callee: s.callee, sites: [], calls: 0 };
    if (!s.never) pair.sites.push(i);
    pair.calls += s.calls;
    pairs.set(key, pair);
  });
  return [...pairs.values()];
}

// Each function's column: its height (0 for a function that calls none, else one more than its
// highest callee decided before it in the env's order, which breaks recursion's cycles), drawn
// with the callers on the left. Rows in the order the env first decides a function's sites.
export function layout(graph) {
  const n = graph.functions.length;
  const rank = new Array(n).fill(-1);
  const height = new Array(n).fill(0);
  graph.order.forEach((s, k) => {
    const { caller, callee } = graph.sites[s];
    if (rank[caller] < 0) rank[caller] = k;
    if (callee !== caller && (rank[callee] < 0 || rank[callee] < rank[caller])) {
      height[caller] = Math.max(height[caller], height[callee] + 1);
    }
  });
  const used = new Set(graph.sites.flatMap((s) => [s.caller, s.callee]));
  const top = Math.max(0, ...height);
  const columns = new Map();
  for (const f of [...used].sort((a, b) => (rank[a] - rank[b]) || (a - b))) {
    const column = top - height[f];
    columns.set(column, [...(columns.get(column) ?? []), f]);
  }
  const position = new Map();
  for (const [column, fs] of columns) {
    // A fixed 8:5 box, whatever the depth: the chart keeps the aspect ratio.
    fs.forEach((f, row) => position.set(f, { x: (column / Math.max(top, 1)) * 1600, y: ((row + 1) / (fs.length + 1)) * 1000 }));
  }
  return { position, pairs: pairsOf(graph) };
}

// How a pair's sites stand in `bits`: 'inlined' (all), 'kept' (none) or 'mixed'.
export function pairState(pair, bits) {
  const inlined = pair.sites.reduce((sum, s) => sum + (bits[s] ? 1 : 0), 0);
  return inlined === 0 ? 'kept' : inlined === pair.sites.length ? 'inlined' : 'mixed';
}

// The chart on `el`: update(graph, bits, {current, selected}) draws the decisions `bits` (one per
// site), the site decided at this step (`current`, a site index or -1) and the selected function.
// onEdge(pair) and onNode(function index) report clicks.
export function callGraphChart(el, { onEdge = () => {}, onNode = () => {} } = {}) {
  const c = makeChart(echarts, el);
  let drawnFor = null;
  let shape = null;
  c.on('click', (p) => {
    if (!shape) return;
    if (p.dataType === 'edge') onEdge(shape.pairs[p.dataIndex]);
    else if (p.dataType === 'node') onNode(Number(p.data.id));
  });
  return {
    update(graph, bits, { current = -1, selected = -1 } = {}) {
      if (drawnFor !== graph) {
        shape = layout(graph);
        drawnFor = graph;
      }
      const currentPair = current >= 0 ? `${graph.sites[current].caller}>${graph.sites[current].callee}` : null;
      const big = Math.max(1, ...graph.functions.map((f) => f.calls));
      const fewNodes = shape.position.size <= 40;
      // Symbols shrink as nodes multiply (SQLite draws about 2,000).
      const [smallest, range] = shape.position.size > 400 ? [3, 6] : [6, 14];
      const nodes = [...shape.position].map(([f, { x, y }]) => {
        const fn = graph.functions[f];
        return {
          id: String(f), name: fn.name, x, y,
          value: fn.calls,
          symbolSize: smallest + range * (Math.log10(1 + fn.calls) / Math.log10(1 + big)),
          itemStyle: { color: fn.local ? '#3867d6' : '#6a00a8', borderColor: f === selected ? '#d9534f' : '#fff', borderWidth: f === selected ? 3 : 1 },
          label: { show: fewNodes || f === selected, position: 'right', fontSize: 11 },
          tooltip: { formatter: `${fn.name}${fn.local ? ' (static)' : ''}<br>${fn.text_bytes} bytes of code<br>${calls(fn.calls)} dynamic calls from ${fn.callers} sites` },
        };
      });
      const links = shape.pairs.map((pair) => {
        const state = pair.key === currentPair ? 'current' : pairState(pair, bits);
        const from = graph.functions[pair.caller].name;
        const to = graph.functions[pair.callee].name;
        const inlined = pair.sites.filter((s) => bits[s]).length;
        return {
          source: String(pair.caller), target: String(pair.callee),
          lineStyle: { color: DECISION_COLORS[state], width: (state === 'current' ? 3 : 1) + Math.log10(1 + pair.calls) / 2, opacity: state === 'kept' ? 0.5 : 0.9 },
          tooltip: { formatter: `${from} → ${to}<br>${pair.sites.length} call sites, ${inlined} inlined<br>${calls(pair.calls)} dynamic calls<br>click: inline or keep them all` },
        };
      });
      c.setOption({
        ...CHART_BASE,
        tooltip: { confine: true },
        series: [{
          id: 'calls', type: 'graph', layout: 'none', roam: true, edgeSymbol: ['none', 'arrow'], edgeSymbolSize: 5,
          emphasis: { focus: 'adjacency', label: { show: true } },
          data: nodes, links,
        }],
      }); // merged into the chart: the visitor's zoom and pan stay
      el.dataset.edges = String(links.length);
      el.dataset.inlinedEdges = String(links.filter((l) => l.lineStyle.color === DECISION_COLORS.inlined).length);
    },
  };
}

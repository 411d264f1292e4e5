// AutoTM's ILP in the playground, solved in the worker by HiGHS (WebAssembly): the episode shown
// beside the ILP's plan for the same config (the plan runs as the `plan` policy, so both lines
// are the same simulation), and the sweep of the fast-memory ratio (AutoTM's Figures 7 and 9)
// for the shown config's model, one ratio per worker request so the chart fills as they finish.
import * as echarts from 'echarts/core';

import { CHART_BASE, chart as makeChart } from '../../shell/dom.js';
import { EpisodeRun } from '../../shell/episode_run.js';
import { formatMs, showFigure } from '../../shell/format.js';

const MIB = 1024 * 1024;
const POLICY_COLOR = '#3867d6';
const ILP_COLOR = '#d9534f';
const OPTIMIZER_COLORS = ['#8a8a8a', '#f0a202', '#6a00a8', '#2e9d5b', '#d9534f', '#3867d6', '#111'];
export const SWEEP_RATIOS = ['0', '1:8', '1:4', '1:2', '1:1', '2:1', '4:1'];
const ILP_OPTIONS = { gap: 0.01, time_limit: 60 };

function section(container, { id, title }) {
  const s = Object.assign(document.createElement('section'), { className: 'panel full' });
  s.setAttribute('aria-labelledby', `${id}-title`);
  s.append(Object.assign(document.createElement('h2'), { id: `${id}-title`, textContent: title }));
  container.append(s);
  return s;
}

function element(tag, props = {}, children = []) {
  const el = Object.assign(document.createElement(tag), props);
  el.append(...children);
  return el;
}

function chartBox(parent, id, label) {
  const el = element('div', { id, className: 'chart' });
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', label);
  parent.append(el);
  return makeChart(echarts, el);
}

// The ILP request for the shown episode's config, or an Error saying why there is none.
function ilpRequest(config, variant) {
  if (config.graph) {
    return new Error('The ILP here solves zoo models; for a graph file run `sysgym tensorplace ilp --input FILE`.');
  }
  const { model, batch, fast_memory: fastMemory, platform } = config;
  return { model, batch, fast_memory: fastMemory, platform, variant, ...ILP_OPTIONS };
}

const configKey = (config) => JSON.stringify(config);

// Runs the plan as an episode in the worker and collects every step (no playback).
async function planEpisode(client, meta, plan) {
  let run = null;
  const request = client.start('run', { args: { env: meta.env, config: meta.config, policy: 'plan', policyConfig: plan, seed: 0 } }, (event) => {
    if (event.kind === 'meta') run = new EpisodeRun(event.meta);
    else if (event.kind === 'frames') run.add(event.frames);
  });
  try {
    const result = await request.result;
    run.finish(result.summary);
    return run;
  } finally {
    client.request('drop', { of: request.id });
  }
}

const kernelPoints = (run, last, value) => run.frames.slice(0, last + 1).map((f, i) => [f.info.kernel, value(f, i)]);

// The episode shown and the ILP's plan: fast memory in use and the iteration so far, per kernel.
export function ilpPanel(container, { client }) {
  const root = section(container, { id: 'ilp-panel', title: 'The policy beside AutoTM\'s ILP (HiGHS, in this tab)' });
  const variant = element('select', { id: 'ilp-variant' }, ['static', 'sync', 'async'].map((v) => element('option', { value: v, textContent: v })));
  const solve = element('button', { type: 'button', id: 'ilp-solve', disabled: true, textContent: 'Solve the ILP for this config' });
  const status = element('p', { id: 'ilp-status', className: 'status', textContent: 'Run an episode, then solve the ILP for its config: its plan is played beside the episode.' });
  status.setAttribute('aria-live', 'polite');
  const figures = element('dl', { className: 'figures' });
  figures.innerHTML = `
    <div><dt>Policy: iteration</dt><dd id="ilp-policy-ms">–</dd></div>
    <div><dt>ILP: iteration</dt><dd id="ilp-ms">–</dd></div>
    <div><dt>ILP: slowdown</dt><dd id="ilp-slowdown">–</dd></div>
    <div><dt>ILP: gap to its bound</dt><dd id="ilp-gap">–</dd></div>
    <div><dt>ILP: solved in</dt><dd id="ilp-seconds">–</dd></div>`;
  const charts = element('div', { className: 'comparison-charts' });
  root.append(element('div', { className: 'buttons' }, [element('label', { htmlFor: 'ilp-variant', textContent: 'Variant' }), variant, solve]), status, figures, charts);
  const capacity = chartBox(charts, 'ilp-capacity-chart', 'Fast memory in use after each kernel: the policy and the ILP');
  const iteration = chartBox(charts, 'ilp-iteration-chart', 'The iteration so far: the policy and the ILP');
  const $ = (id) => figures.querySelector(`#${id}`);

  let shown = null; // {run, cursor} of the episode shown
  let ilp = null; // {key, run, report}

  function draw() {
    if (!shown) return;
    const { run, cursor } = shown;
    const mine = ilp && ilp.key === configKey(run.meta.config) ? ilp : null;
    showFigure($('ilp-policy-ms'), run.sumAt('step_ms', cursor), formatMs);
    const limit = run.meta.facts.fast_limit_bytes / MIB;
    const series = (name, color, r, last, value) => ({ type: 'line', name, step: 'end', showSymbol: false, itemStyle: { color }, data: kernelPoints(r, last, value) });
    const axes = { xAxis: { type: 'value', name: 'kernel', nameLocation: 'middle', nameGap: 26, min: 0, max: Math.max(run.meta.facts.kernels - 1, 1) } };
    const fast = (f) => f.info.fast_bytes / MIB;
    capacity.setOption({
      ...CHART_BASE, ...axes, legend: { top: 0 }, grid: { left: 64, right: 44, top: 44, bottom: 40 }, tooltip: { trigger: 'axis' },
      yAxis: { type: 'value', name: 'MiB', max: (e) => Math.ceil(Math.max(e.max, limit) * 1.08) },
      series: [
        { ...series(run.meta.policy, POLICY_COLOR, run, cursor, fast),
          markLine: { symbol: 'none', silent: true, lineStyle: { color: '#555', type: 'dashed' }, label: { formatter: 'limit' }, data: [{ yAxis: limit }] } },
        ...(mine ? [series(`ILP (${mine.report.variant})`, ILP_COLOR, mine.run, mine.run.frames.length - 1, fast)] : []),
      ],
    }, { notMerge: true });
    iteration.setOption({
      ...CHART_BASE, ...axes, legend: { top: 0 }, grid: { left: 64, right: 16, top: 44, bottom: 40 }, tooltip: { trigger: 'axis', valueFormatter: formatMs },
      yAxis: { type: 'value', name: 'ms' },
      series: [
        series(run.meta.policy, POLICY_COLOR, run, cursor, (_, i) => run.sumAt('step_ms', i)),
        ...(mine ? [series(`ILP (${mine.report.variant})`, ILP_COLOR, mine.run, mine.run.frames.length - 1, (_, i) => mine.run.sumAt('step_ms', i))] : []),
      ],
    }, { notMerge: true });
  }

  function showReport(report, run) {
    showFigure($('ilp-ms'), run.summary.iteration_ms, formatMs);
    showFigure($('ilp-slowdown'), run.summary.slowdown, (v) => v.toFixed(3));
    showFigure($('ilp-gap'), report.gap, (v) => `${(100 * v).toFixed(2)} %`);
    showFigure($('ilp-seconds'), report.solve_seconds, (v) => `${v.toFixed(2)} s`);
  }

  function clearReport() {
    for (const id of ['ilp-ms', 'ilp-slowdown', 'ilp-gap', 'ilp-seconds']) {
      $(id).textContent = '–';
      delete $(id).dataset.value;
    }
  }

  solve.addEventListener('click', async () => {
    if (!shown) return;
    const meta = shown.run.meta;
    const request = ilpRequest(meta.config, variant.value);
    if (request instanceof Error) {
      status.textContent = request.message;
      return;
    }
    solve.disabled = true;
    root.dataset.state = 'solving';
    status.textContent = `Solving the ${variant.value} ILP for ${meta.config.model} at batch ${meta.config.batch}, fast memory ${meta.config.fast_memory} (HiGHS, to a ${100 * ILP_OPTIONS.gap} % gap)…`;
    try {
      const report = await client.request('extra', { family: 'tensorplace', method: 'ilp', args: [{ ...request, with_plan: true }] });
      const run = await planEpisode(client, meta, report.plan);
      ilp = { key: configKey(meta.config), run, report };
      status.textContent = `The ${report.variant} ILP: ${report.status}, ${report.binaries} binaries; its plan, played as the plan policy, takes ${formatMs(run.summary.iteration_ms)}.`;
      showReport(report, run);
      root.dataset.state = 'solved';
    } catch (e) {
      status.textContent = `The ILP failed: ${e.message}`;
      root.dataset.state = 'failed';
    } finally {
      solve.disabled = false;
      draw();
    }
  });

  return {
    update(run, cursor) {
      if (ilp && shown?.run !== run && ilp.key !== configKey(run.meta.config)) {
        clearReport();
        status.textContent = 'The config changed: solve the ILP again for this one.';
        root.dataset.state = 'stale';
      }
      shown = { run, cursor };
      solve.disabled = root.dataset.state === 'solving';
      draw();
    },
  };
}

// AutoTM's Figures 7/9 for the shown config's model: slowdown against the slow:fast ratio.
export function sweepPanel(container, { client }) {
  const root = section(container, { id: 'sweep-panel', title: 'Slowdown against the share of slow memory, per optimizer (AutoTM\'s Figure 7)' });
  const start = element('button', { type: 'button', id: 'sweep-start', disabled: true, textContent: 'Sweep this model' });
  const progress = element('progress', { id: 'sweep-progress', max: SWEEP_RATIOS.length, value: 0 });
  progress.setAttribute('aria-label', 'ratios swept');
  const status = element('p', { id: 'sweep-status', className: 'status', textContent: `Run an episode, then sweep its model over slow:fast ratios ${SWEEP_RATIOS.join(', ')} (the ILPs by HiGHS, to a ${100 * ILP_OPTIONS.gap} % gap).` });
  status.setAttribute('aria-live', 'polite');
  root.append(element('div', { className: 'buttons' }, [start, progress]), status);
  const c = chartBox(root, 'sweep-chart', 'Slowdown against all-fast memory at each slow:fast ratio, one line per optimizer');
  let config = null;
  let busy = false;

  function draw(report) {
    const rows = report.rows;
    c.setOption({
      ...CHART_BASE, legend: { top: 0 }, grid: { left: 64, right: 16, top: 44, bottom: 40 },
      tooltip: { trigger: 'axis', valueFormatter: (v) => (v === undefined ? '–' : v.toFixed(3)) },
      xAxis: { type: 'category', name: 'slow:fast', nameLocation: 'middle', nameGap: 26, data: SWEEP_RATIOS },
      yAxis: { type: 'value', name: 'slowdown', min: 1 },
      series: report.optimizers.map((name, i) => ({
        type: 'line', name, itemStyle: { color: OPTIMIZER_COLORS[i % OPTIMIZER_COLORS.length] },
        data: rows.map((r) => [r.ratio, r.optimizers[name].slowdown]),
      })),
    }, { notMerge: true });
  }

  start.addEventListener('click', async () => {
    const request = config && ilpRequest(config, 'static');
    if (!request || request instanceof Error) {
      status.textContent = request?.message ?? 'Run an episode first.';
      return;
    }
    busy = true;
    start.disabled = true;
    root.dataset.state = 'sweeping';
    const began = performance.now();
    const { model, batch, platform } = request;
    const report = { rows: [], optimizers: [] };
    try {
      for (const ratio of SWEEP_RATIOS) {
        status.textContent = `Sweeping ${model} at batch ${batch}: ratio ${ratio} (${report.rows.length + 1} of ${SWEEP_RATIOS.length})…`;
        const part = await client.request('extra', { family: 'tensorplace', method: 'sweep', args: [{ model, batch, platform, ratios: [ratio], ...ILP_OPTIONS }] });
        report.optimizers = part.optimizers;
        report.rows.push(...part.rows);
        progress.value = report.rows.length;
        draw(report);
      }
      const seconds = (performance.now() - began) / 1000;
      status.textContent = `${model} at batch ${batch}: ${SWEEP_RATIOS.length} ratios x ${report.optimizers.length} optimizers in ${seconds.toFixed(1)} s.`;
      root.dataset.state = 'swept';
    } catch (e) {
      status.textContent = `The sweep failed: ${e.message}`;
      root.dataset.state = 'failed';
    } finally {
      busy = false;
      start.disabled = false;
    }
  });

  return {
    update(run) {
      config = run.meta.config;
      start.disabled = busy;
    },
  };
}

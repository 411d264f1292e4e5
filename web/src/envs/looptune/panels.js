// looptune's panels beyond the episode shown: a person tuning by hand (the legal actions as
// buttons, each click replayed as the `sequence` policy in the worker), and the nests measured
// for real in this tab (the executor in WebAssembly), with this tab's peak.
import { showFigure } from '../../shell/format.js';
import { EpisodeRun } from '../../shell/episode_run.js';

export const ACTIONS = ['up', 'down', 'swap_up', 'swap_down', 'split_2', 'split_4', 'split_8', 'split_16', 'split_32', 'merge', 'unroll', 'vectorize'];
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

function panel(container, id, title) {
  const section = Object.assign(document.createElement('section'), { className: 'panel' });
  section.setAttribute('aria-labelledby', `${id}-title`);
  section.append(Object.assign(document.createElement('h2'), { id: `${id}-title`, textContent: title }));
  container.append(section);
  return section;
}

// Every step of an episode run in the worker (no playback).
async function runEpisode(client, args) {
  let run = null;
  const request = client.start('run', { args }, (event) => {
    if (event.kind === 'meta') run = new EpisodeRun(event.meta);
    else if (event.kind === 'frames') run.add(event.frames);
  });
  try {
    const { summary } = await request.result;  // before reading `run`: the events fill it
    run.finish(summary);
    return run;
  } finally {
    client.request('drop', { of: request.id });
  }
}

// Tuning by hand on the shown episode's config: each click adds an action and replays them all
// as the `sequence` policy. At the start one `up` (a no-op on the outermost loop) tells which
// actions apply.
export function handPanel(container, { client }) {
  const section = panel(container, 'hand', 'Tune it yourself');
  section.insertAdjacentHTML('beforeend', `
    <p class="hint">Click an action: the worker replays your actions from the untuned nest. Greyed actions cannot apply here.</p>
    <div id="hand-actions" class="button-row">${ACTIONS.map((a, i) => `<button type="button" data-action="${i}">${a}</button>`).join(' ')}</div>
    <p><button type="button" id="hand-undo">Undo</button> <button type="button" id="hand-reset">Start over</button></p>
    <pre id="hand-code" class="nest-code"></pre>
    <dl class="figures"><div><dt>GFLOPS (model)</dt><dd id="hand-gflops">–</dd></div>
    <div><dt>Speedup</dt><dd id="hand-speedup">–</dd></div><div><dt>Your actions</dt><dd id="hand-count">0</dd></div></dl>`);
  const $ = (id) => section.querySelector(`#${id}`);
  const buttons = [...section.querySelectorAll('#hand-actions button')];
  let base = null;  // {env, config} of the shown episode
  let actions = [];
  let busy = false;

  async function replay() {
    if (!base || busy) return;
    busy = true;
    section.dataset.state = 'running';
    try {
      const played = actions.length ? actions : [0];
      const run = await runEpisode(client, { env: base.env, config: { ...base.config, episode_length: played.length },
        policy: 'sequence', policyConfig: { actions: played }, seed: 0 });
      const last = run.frames.at(-1);
      $('hand-code').textContent = nestCode(loopsOf(last.frame, run.meta.context), last.info.cursor, run.meta.context);
      showFigure($('hand-gflops'), last.info.gflops, gflopsText);
      showFigure($('hand-speedup'), last.info.gflops / run.meta.context.start_gflops, (v) => `${v.toFixed(2)}x`);
      $('hand-count').textContent = String(actions.length);
      buttons.forEach((b, i) => { b.disabled = (last.info.legal_mask & (2 ** i)) === 0; });
      section.dataset.state = 'ready';
    } catch (e) {
      $('hand-code').textContent = `Replaying failed: ${e.message}`;
      section.dataset.state = 'failed';
    } finally {
      busy = false;
    }
  }
  buttons.forEach((b, i) => b.addEventListener('click', () => { actions.push(i); replay(); }));
  $('hand-undo').addEventListener('click', () => { actions.pop(); replay(); });
  $('hand-reset').addEventListener('click', () => { actions = []; replay(); });
  return {
    update(run) {
      const next = { env: run.meta.env, config: { ...run.meta.config } };
      delete next.config.episode_length;
      if (JSON.stringify(next) === JSON.stringify(base)) return;
      base = next;
      actions = [];
      replay();
    },
  };
}

// This tab's peak (kept in localStorage: it is this browser's, not this episode's), and the
// untuned nest and every step's nest timed for real.
export function measurePanel(container, { client }) {
  const section = panel(container, 'measure', 'Measured in this tab');
  section.insertAdjacentHTML('beforeend', `
    <p><button type="button" id="measure">Measure every step's nest</button> <span id="measure-status" role="status"></span></p>
    <dl class="figures"><div><dt>Untuned</dt><dd id="measured-before">–</dd></div>
    <div><dt>Shown nest</dt><dd id="measured-after">–</dd></div><div><dt>Speedup measured</dt><dd id="measured-speedup">–</dd></div>
    <div><dt>This tab's peak</dt><dd id="tab-peak">–</dd></div></dl>
    <table class="compact"><thead><tr><th>Step</th><th>Model GFLOPS</th><th>Measured GFLOPS</th></tr></thead><tbody id="measured-steps"></tbody></table>`);
  const $ = (id) => section.querySelector(`#${id}`);
  const stored = Number(globalThis.localStorage?.getItem('sysgym.looptune.peak'));
  if (stored > 0) showFigure($('tab-peak'), stored, gflopsText);
  let shown = null;
  let measured = null;  // {run, before, steps: [measurement per frame]}
  const showCursor = () => {
    if (!measured || !shown || measured.run !== shown.run) return;
    const after = measured.steps[shown.cursor];
    showFigure($('measured-after'), after.gflops, gflopsText);
    showFigure($('measured-speedup'), after.gflops / measured.before.gflops, (v) => `${v.toFixed(2)}x`);
  };
  $('measure').addEventListener('click', async () => {
    if (!shown) return;
    const { run } = shown;
    const kernel = run.meta.context.kernel;
    const measure = (loops) => client.request('extra', { family: 'looptune', method: 'measure', args: [{ kernel, ...(loops ? { loops } : {}) }] });
    $('measure').disabled = true;
    try {
      $('measure-status').textContent = 'Probing this tab\'s peak…';
      const peak = await client.request('extra', { family: 'looptune', method: 'peak', args: [] });
      globalThis.localStorage?.setItem('sysgym.looptune.peak', String(peak));
      showFigure($('tab-peak'), peak, gflopsText);
      const before = await measure(null);
      const steps = [];
      const seen = new Map();
      for (const frame of run.frames) {
        const loops = loopsOf(frame.frame, run.meta.context);
        const key = JSON.stringify(loops);
        $('measure-status').textContent = `Timing step ${steps.length + 1} of ${run.frames.length} in WebAssembly…`;
        if (!seen.has(key)) seen.set(key, await measure(loops));
        steps.push(seen.get(key));
      }
      measured = { run, before, steps };
      showFigure($('measured-before'), before.gflops, gflopsText);
      $('measured-steps').replaceChildren(...steps.map((m, i) => {
        const row = document.createElement('tr');
        row.innerHTML = `<td>${i}</td><td>${run.frames[i].info.gflops.toFixed(2)}</td><td data-value="${m.gflops}">${m.gflops.toFixed(2)}</td>`;
        return row;
      }));
      showCursor();
      $('measure-status').textContent = `${steps.length} steps, ${seen.size} distinct nests, each the fastest of its samples (the model is this project's machine).`;
    } catch (e) {
      $('measure-status').textContent = `Measuring failed: ${e.message}`;
    } finally {
      $('measure').disabled = false;
    }
  });
  return {
    update(run, cursor) {
      shown = run.frames[cursor] ? { run, cursor } : null;
      showCursor();
    },
  };
}

// tensorplace's extras, as `sysgym.tensorplace`: the model zoo, graphs, and AutoTM's ILP and
// sweep, built and replayed by the core as natively. The ILP is solved by HiGHS compiled to
// WebAssembly (the npm package `highs`, loaded on first use) or by any solver you pass:
// solver(lpText, {time_limit, gap, start}) -> {status, has_solution, objective, bound, seconds,
// values: {name: value}}.
import { ApiMisuseError, lastError, parsed, text } from './errors.mjs';

let highs = null;
let highsLoader = null;  // set by useHighs(); else the package `highs` is imported

// HiGHS through its one-shot API: CPLEX LP text in, named column values out. It takes no
// starting solution; its MIP bound is not reported, so the gap is known only at optimality.
async function highsSolver() {
  if (highs === null) {
    let loader = highsLoader;
    if (loader === null) {
      try {
        ({ default: loader } = await import('highs'));
      } catch (e) {
        throw new ApiMisuseError(`the ILP needs the npm package highs (npm install highs), or a solver of your own: ${e.message}`);
      }
    }
    highs = await loader();
  }
  return (lp, optionsText) => {
    const options = JSON.parse(optionsText);
    const start = performance.now();
    try {
      const s = highs.solve(lp, { time_limit: options.time_limit, mip_rel_gap: options.gap, output_flag: false });
      const seconds = (performance.now() - start) / 1000;
      const solved = s.Status === 'Optimal' || s.Status === 'Time limit reached';
      const values = {};
      if (solved) for (const [name, column] of Object.entries(s.Columns)) values[name] = column.Primal;
      const status = s.Status === 'Optimal' ? 'optimal' : s.Status === 'Time limit reached' ? 'time limit'
        : s.Status === 'Infeasible' ? 'infeasible' : `error: HiGHS says ${s.Status}`;
      return JSON.stringify({
        status, has_solution: solved && Object.keys(values).length > 0, objective: s.ObjectiveValue,
        bound: s.Status === 'Optimal' ? s.ObjectiveValue : 0, seconds, values,
      });
    } catch (e) {
      return JSON.stringify({ error: String(e?.message ?? e) });
    }
  };
}

// A JS solver function becomes the (lp, optionsText) -> answer text the core calls.
function wrap(solver) {
  return (lp, optionsText) => {
    try {
      return JSON.stringify(solver(lp, JSON.parse(optionsText)));
    } catch (e) {
      return JSON.stringify({ error: String(e?.message ?? e) });
    }
  };
}

export class Tensorplace {
  #core;
  constructor(core) {
    this.#core = core;
  }

  // The HiGHS loader to use (the `highs` package's default export), e.g. one a page bundled.
  useHighs(loader) {
    if (typeof loader !== 'function') throw new ApiMisuseError('useHighs: loader must be the highs package\'s default export');
    highsLoader = loader;
    highs = null;
  }

  // Every zoo model's size at `batch` (`sysgym tensorplace zoo`); text when json is false.
  zoo(batch = 32, { json = true } = {}) {
    if (!Number.isInteger(batch) || batch < 1 || batch > 2 ** 20) throw new ApiMisuseError(`zoo: batch must be an integer from 1 to 2^20, got ${batch}`);
    const out = this.#core.tensorplaceZoo(batch, json === true);
    if (out === '') throw lastError(this.#core);
    return json ? JSON.parse(out) : out;
  }

  // One iteration's summary, from {model, batch} or {graph: JSON text}; with `withGraph`, also
  // its graph JSON (what `sysgym tensorplace graph -o` writes).
  graph(request, { json = true, withGraph = false } = {}) {
    const [summary, graph] = parsed(this.#core, this.#core.tensorplaceGraph(JSON.stringify(request ?? {}), json === true, withGraph === true));
    return { summary: json ? JSON.parse(summary) : summary, graph: withGraph ? graph : undefined };
  }

  // AutoTM's ILP for {model, batch | graph, fast_memory, platform, variant (static, sync or
  // async), time_limit (seconds for the whole call), gap, defrag, with_plan}, as `sysgym
  // tensorplace ilp` reports it (the variants before the one asked for are solved first, each
  // starting the next). With with_plan, the report's `plan` is the plan JSON the `plan` policy
  // follows (policyConfig of runEpisode).
  async ilp(request, { json = true, solver } = {}) {
    return this.#solve('tensorplaceIlp', request, json, solver);
  }

  // The sweep over {ratios, optimizers} (`sysgym tensorplace sweep`; optimizers default to all
  // but async, the slowest to solve). time_limit covers the whole sweep (default none),
  // solve_time_limit each solve (default 60).
  async sweep(request, { json = true, solver } = {}) {
    return this.#solve('tensorplaceSweep', request, json, solver);
  }

  async #solve(method, request, json, solver) {
    if (solver !== undefined && typeof solver !== 'function') throw new ApiMisuseError(`${method}: solver must be a function`);
    const callback = solver === undefined ? await highsSolver() : wrap(solver);
    const out = this.#core[method](JSON.stringify(request ?? {}), callback, json === true);
    if (out === '') throw lastError(this.#core);
    return json ? JSON.parse(out) : text(out, method);
  }
}

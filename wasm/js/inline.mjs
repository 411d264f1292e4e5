// inline's extras, as `sysgym.inline`: the cost model's figures for any decision set of a program
// and its call graph, as `sysgym inline estimate` gives them natively.
import { ApiMisuseError, lastError } from './errors.mjs';

export class Inline {
  #core;
  constructor(core) {
    this.#core = core;
  }

  // {config (inline-v0 settings: program, objective, baseline, size_limit, cost_model),
  // decisions ('never', 'always', 'O2', 'Oz', site ids to inline, 0/1 per site in the program's
  // order, or a decisions file's object; default 'never'), graph (also the call graph)} ->
  // {program, sites, inlined, text_bytes, instructions, text_vs_Oz, instructions_vs_O2, score,
  // graph?: {functions, sites, order}}.
  estimate(request = {}) {
    if (request === null || typeof request !== 'object' || Array.isArray(request)) {
      throw new ApiMisuseError(`inline.estimate: the request must be an object {config, decisions, graph}, got ${JSON.stringify(request)}`);
    }
    const out = this.#core.inlineEstimate(JSON.stringify(request));
    if (out === '') throw lastError(this.#core);
    return JSON.parse(out);
  }

  // The program's call graph: {functions: [{name, local, text_bytes, calls, callers}], sites:
  // [{id, caller, callee, calls, copies, line, o2, oz}], order (order[k]: the site step k decides)}.
  callGraph(config = {}) {
    return this.estimate({ config, graph: true }).graph;
  }
}

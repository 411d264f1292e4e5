// looptune's extras, as `sysgym.looptune`: a loop nest measured in this JS engine, and the
// executor's benchmark (`sysgym looptune bench --executor` natively) nest by nest.
import { ApiMisuseError, lastError } from './errors.mjs';

export class Looptune {
  #core;
  constructor(core) {
    this.#core = core;
  }

  // {kernel, loops (as `sysgym looptune tune --json` prints them; the untuned nest when left
  // out), annotations, min_seconds} -> {kernel, micro_kernel, model_gflops, gflops (the fastest
  // run), median_gflops, runs}.
  measure(request = {}) {
    const out = this.#core.looptuneMeasure(JSON.stringify(request ?? {}));
    if (out === '') throw lastError(this.#core);
    return JSON.parse(out);
  }

  // The executor's peak GFLOPS in this engine: an 8 x 64 register block of a 64^3 matmul in L1,
  // the nest the env's measured rewards are scaled by.
  peak() {
    const out = this.#core.looptunePeak();
    if (out < 0) throw lastError(this.#core);
    return out;
  }

  // Every benchmark nest measured here: [{kernel, found_by, micro_kernel, loops, gflops,
  // median_gflops, runs}].
  executorBench({ minSeconds = 0.01 } = {}) {
    if (typeof minSeconds !== 'number' || !(minSeconds >= 0.001 && minSeconds <= 60)) {
      throw new ApiMisuseError(`executorBench: minSeconds must be a number from 0.001 to 60, got ${minSeconds}`);
    }
    const out = this.#core.looptuneExecutorBench(minSeconds);
    if (out === '') throw lastError(this.#core);
    return JSON.parse(out);
  }
}

// A memtier episode stepped a window at a time: a policy deciding, or a recording replayed.
// Each step returns the window just played as plain copies (safe to keep and to post to another
// thread): its per-bin sample counts, the bins' resident fractions, the reward and the info.
import { ApiMisuseError, check, finalizer } from './errors.mjs';

export class Episode {
  #core;
  #handle;
  #buffer = null;
  #views;

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    const d = JSON.parse(handle.describeJson());
    this.config = d.config;
    this.facts = d.facts;
    this.infoKeys = d.info_keys;
    this.bins = d.bins;
    this.start = d.start;
    this.windows = d.windows;
    this.policy = d.policy;
    this.policyParameters = d.policy_parameters ?? null;
    this.isReplay = d.replay;
    finalizer.register(this, handle, this);
  }

  #live() {
    if (!this.#handle) throw new ApiMisuseError('the episode was disposed');
    return this.#handle;
  }

  #refresh() {
    if (this.#buffer !== this.#core.HEAPU8.buffer) {
      const h = this.#live();
      this.#views = { histogram: h.histogramView(), resident: h.residentView(), result: h.resultView() };
      this.#buffer = this.#core.HEAPU8.buffer;
    }
    return this.#views;
  }

  get done() {
    return this.#live().done();
  }

  // Plays the next window: { window, reward, done, info, histogram (Uint32Array), resident
  // (Float32Array) }.
  step() {
    check(this.#core, this.#live().step());
    const v = this.#refresh();
    const info = {};
    this.infoKeys.forEach((key, i) => {
      info[key] = v.result[3 + i];
    });
    return {
      window: info.window,
      reward: v.result[0],
      done: v.result[1] === 1 || v.result[2] === 1,
      info,
      histogram: v.histogram.slice(),
      resident: v.resident.slice(),
    };
  }

  // Totals so far (estimated, migration and total ms, all-DDR/all-HBM bounds, gap closed).
  summary() {
    return JSON.parse(this.#live().summaryJson());
  }

  // The episode JSON `sysgym run --record` writes (a replay gives back its recording).
  toJSON() {
    return JSON.parse(this.#live().recordJson());
  }

  dispose() {
    if (!this.#handle) return;
    finalizer.unregister(this);
    this.#handle.delete();
    this.#handle = null;
  }
}

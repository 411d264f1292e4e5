// An episode of any env stepped one step at a time: a policy deciding, or a recording replayed.
// Each step returns what the env shows as plain copies (safe to keep and to post to another
// thread): the reward, the info and the env's frame arrays (memtier: `histogram`, per-bin sample
// counts, and `resident`, per-bin resident fractions).
import { ApiMisuseError, check, finalizer } from './errors.mjs';
import { infoReader } from './info.mjs';

// How an env's episodes are compared (from its describe hooks): the summary key that says how
// well an episode went, the key and direction a comparison ranks by, and the keys it shows.
export function comparing(d) {
  return {
    primaryMetric: d.primary_metric,
    ranking: { key: d.ranking.key, higherIsBetter: d.ranking.higher_is_better },
    reportColumns: d.report_columns,
  };
}

export class Episode {
  #core;
  #handle;
  #readInfo;

  constructor(core, handle) {
    this.#core = core;
    this.#handle = handle;
    const d = JSON.parse(handle.describeJson());
    this.env = d.id;
    this.config = d.config;
    this.facts = d.facts;
    this.infoKeys = d.info_keys;
    this.#readInfo = infoReader(this.infoKeys, 3);
    Object.assign(this, comparing(d));
    // [{name, dtype, size}] of each step's frame, and what reading them needs (memtier: bins with
    // their address spans, the first window and the window count).
    this.frameLayout = d.frame;
    this.frameContext = d.frame_context;
    this.policy = d.policy;
    this.policyParameters = d.policy_parameters ?? null;
    this.isReplay = d.replay;
    finalizer.register(this, handle, this);
  }

  #live() {
    if (!this.#handle) throw new ApiMisuseError('the episode was disposed');
    return this.#handle;
  }

  get done() {
    return this.#live().done();
  }

  // Plays the next step: { reward, done, info, frame: {name: typed array copy} }.
  step() {
    const h = this.#live();
    check(this.#core, h.step());
    // Views are made after the step: a step may grow memory or move the env's arrays.
    const result = h.resultView();
    const info = this.#readInfo(result);
    const frame = {};
    this.frameLayout.forEach(({ name }, i) => {
      frame[name] = h.frameView(i).slice();
    });
    return { reward: result[0], done: result[1] === 1 || result[2] === 1, info, frame };
  }

  // The env's episode summary so far (memtier: estimated, migration and total ms, all-DDR and
  // all-HBM bounds, gap closed).
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

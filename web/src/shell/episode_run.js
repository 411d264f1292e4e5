// One episode as the page sees it: the steps received from the worker so far, running sums of
// the reward and of every numeric info key for any playback position, and the core's own summary
// once the episode is over (a view shows the core's figures at the end, so they equal
// `sysgym run --json` exactly).
export class EpisodeRun {
  // `length`: the episode's steps when the env tells them up front (memtier: its windows), else
  // null (the steps received so far).
  constructor(meta, length = null) {
    this.meta = meta;
    this.expected = length;
    this.frames = [];
    // Running sums after each step, in the order the core adds them: 'return' and each info key.
    this.cumulative = { return: [] };
    this.summary = null;
  }

  get length() {
    return this.expected ?? this.frames.length;
  }

  get complete() {
    return this.summary !== null;
  }

  add(frames) {
    const c = this.cumulative;
    for (const f of frames) {
      const n = this.frames.length;
      const push = (key, value) => {
        const sums = (c[key] ??= []);
        sums.push((n === 0 ? 0 : sums[n - 1]) + value);
      };
      push('return', f.reward);
      for (const [key, value] of Object.entries(f.info)) push(key, value);
      this.frames.push(f);
    }
  }

  finish(summary) {
    this.summary = summary;
  }

  // The running sum of `key` ('return' or an info key) after step `index` (0 before the first).
  sumAt(key, index) {
    return index < 0 ? 0 : this.cumulative[key][index];
  }

  // True when `index` is the last step of a finished episode: the core's summary holds there.
  isEnd(index) {
    return this.complete && index === this.frames.length - 1;
  }
}

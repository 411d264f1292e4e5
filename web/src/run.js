// One episode as the page sees it: the windows received from the worker so far, running totals
// for any playback position, and the core's own summary once the episode is over (the figures
// shown at the end are the core's, so they equal `sysgym run --json` exactly).
export class EpisodeRun {
  constructor(meta) {
    this.meta = meta;
    this.frames = [];
    // Running sums after each window, in the order the core adds them.
    this.cumulative = { estimated: [], migration: [], ddr: [], hbm: [] };
    this.summary = null;
  }

  get windows() {
    return this.meta.windows;
  }

  get complete() {
    return this.summary !== null;
  }

  add(frames) {
    const c = this.cumulative;
    for (const f of frames) {
      const n = c.estimated.length;
      const last = (a) => (n === 0 ? 0 : a[n - 1]);
      c.estimated.push(last(c.estimated) + f.info.window_ms);
      c.migration.push(last(c.migration) + f.info.migration_ms);
      c.ddr.push(last(c.ddr) + f.info.t_ddr_ms);
      c.hbm.push(last(c.hbm) + f.info.t_hbm_ms);
      this.frames.push(f);
    }
  }

  finish(summary) {
    this.summary = summary;
  }

  // Totals after window `index` (0-based, within the episode): the core's summary at the end.
  totalsAt(index) {
    if (index < 0) return { estimated_ms: 0, migration_ms: 0, total_ms: 0, ddr_ms: 0, hbm_ms: 0, gap_closed: 0 };
    if (this.complete && index === this.frames.length - 1) return this.summary;
    const c = this.cumulative;
    const estimated = c.estimated[index];
    const migration = c.migration[index];
    const total = estimated + migration;
    const ddr = c.ddr[index];
    const hbm = c.hbm[index];
    return {
      estimated_ms: estimated,
      migration_ms: migration,
      total_ms: total,
      ddr_ms: ddr,
      hbm_ms: hbm,
      gap_closed: ddr === hbm ? 0 : (ddr - total) / (ddr - hbm),
    };
  }
}

// Windows grouped into at most `columns` heatmap columns: per column and bin, log2(1 + mean
// samples per window) and the mean resident fraction, over the windows up to `upTo`.
export function heatmapCells(run, upTo, columns) {
  const group = Math.max(1, Math.ceil(run.windows / columns));
  const bins = run.meta.bins.length;
  const heat = [];
  const resident = [];
  let max = 0;
  for (let first = 0; first <= upTo; first += group) {
    const last = Math.min(first + group - 1, upTo);
    const n = last - first + 1;
    const column = first / group;
    for (let b = 0; b < bins; ++b) {
      let samples = 0;
      let share = 0;
      for (let w = first; w <= last; ++w) {
        samples += run.frames[w].frame.histogram[b];
        share += run.frames[w].frame.resident[b];
      }
      const v = Math.log2(1 + samples / n);
      if (v > 0) heat.push([column, b, v]);
      if (share > 0) resident.push([column, b, share / n]);
      max = Math.max(max, v);
    }
  }
  return { heat, resident, group, columns: Math.ceil(run.windows / group), max };
}

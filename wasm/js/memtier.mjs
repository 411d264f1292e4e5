// memtier's extras, as `sysgym.memtier`: trace pairs from file contents and the what-if estimator
// behind `sysgym memtier estimate`. Running, comparing and replaying memtier episodes goes
// through the generic API like every env's.
import { ApiMisuseError, bytes, check, lastError, parsed, text } from './errors.mjs';

function rangesText(hbmRanges, what) {
  return text(Array.isArray(hbmRanges) ? hbmRanges.join(',') : hbmRanges, what);
}

export class Memtier {
  #core;
  constructor(core) {
    this.#core = core;
  }

  // What load() steps before handing out the module: a small synthetic pair (made in ~10 ms),
  // 64 bins, about 100 samples per window, as long as V8 takes to optimise the step.
  warmUp = {
    env: 'memtier',
    config: { trace: 'synth:phased:20000:1', bins: 64, hbm_capacity: '25%', window_len: 2e6 },
    steps: 2000,
  };

  // A trace pair from file contents (MemAI CSV, perf script or sysgym binary), usable as
  // {trace: name} in memtier configs.
  addTraces(name, ddr, hbm) {
    check(this.#core, this.#core.memtierAddTraces(text(name, 'addTraces: name'), bytes(ddr, 'ddr'), bytes(hbm, 'hbm')));
  }

  // A pair preprocessed by `sysgym memtier preprocess`.
  addPrepared(name, data) {
    check(this.#core, this.#core.memtierAddPrepared(text(name, 'addPrepared: name'), bytes(data, 'data')));
  }

  // The estimated time of a trace with `hbmRanges` ("LO:HI" strings) in HBM, and its bounds.
  estimate(name, hbmRanges = '', { hbmFactor = 1 } = {}) {
    if (typeof hbmFactor !== 'number') throw new ApiMisuseError(`estimate: hbmFactor must be a number, got ${typeof hbmFactor}`);
    return parsed(this.#core, this.#core.memtierEstimateJson(text(name, 'estimate: name'), rangesText(hbmRanges, 'estimate: hbmRanges'), hbmFactor));
  }

  // What each trace offers a learner (`sysgym memtier traces --json`): windows, all-DDR and all-HBM
  // times, the gap as a share of all-DDR and the static oracle's gap closed at `hbmCapacity`.
  // `names`: trace names (default: the shipped traces, under Node).
  traces({ names = [], hbmCapacity = '10%' } = {}) {
    const list = Array.isArray(names) ? names.map((n) => text(n, 'traces: names')) : [text(names, 'traces: names')];
    return parsed(this.#core, this.#core.memtierHeadroomJson(JSON.stringify(list), JSON.stringify(hbmCapacity)));
  }

  // The exact text `sysgym memtier estimate [--json]` prints (the package's bin uses it); the
  // measured run is named `measuredName` in the text.
  // The exact text `sysgym memtier inspect FILE [--json]` prints for a file's bytes (any trace
  // format or a preprocessed pair); options are the flags' texts, checked as natively.
  inspectReport(name, data, { pageSize = '', intervalDistance = '', cpuCyclesPerMs = '', json = true } = {}) {
    const out = this.#core.memtierInspectReportText(text(name, 'inspectReport: name'), bytes(data, 'inspectReport: data'),
      String(pageSize), String(intervalDistance), String(cpuCyclesPerMs), json === true);
    if (out === '') throw lastError(this.#core);
    return out;
  }

  estimateReport(name, windows, hbmRanges, hbmFactor = 1, measured = null, { json = true, measuredName = 'measured' } = {}) {
    const out = this.#core.memtierEstimateReportText(text(name, 'estimateReport: name'), JSON.stringify(windows),
      rangesText(hbmRanges, 'estimateReport: hbmRanges'), String(hbmFactor),
      measured === null ? '' : bytes(measured, 'measured'), measured !== null, text(measuredName, 'estimateReport: measuredName'),
      json === true);
    if (out === '') throw lastError(this.#core);
    return out;
  }
}

// Where the time of JS code on the module goes: sysgym.profile(fn) runs fn with the core's
// profiler recording (the same scopes and report as `sysgym profile`) and times, from JS, every
// call into the module, so that the JS <-> WebAssembly boundary shows as an operation of its own
// with its crossings counted, and the rest of the wall time as time in JS.
import { ApiMisuseError, lastError } from './errors.mjs';

const now = () => performance.now();

// Every function the module binds, as [owner, key, name]: its free functions (Embind gives them
// argCount) and each class's methods and static functions (Embind classes' prototypes inherit
// isAliasOf). Emscripten's own runtime functions are neither.
function boundFunctions(core) {
  const found = [];
  for (const name of Object.keys(core)) {
    const value = core[name];
    if (typeof value !== 'function') continue;
    if (typeof value.prototype?.isAliasOf === 'function') {
      for (const key of Object.getOwnPropertyNames(value.prototype)) {
        if (key !== 'constructor' && typeof value.prototype[key] === 'function') found.push([value.prototype, key, `${name}.${key}`]);
      }
      for (const key of Object.getOwnPropertyNames(value)) {
        if (typeof value[key] === 'function' && !['length', 'name', 'prototype'].includes(key)) found.push([value, key, `${name}.${key}`]);
      }
    } else if (typeof value.argCount === 'number') {
      found.push([core, name, name]);
    }
  }
  return found;
}

// The calls' tallies: per name a count and the time (ms) of the outermost calls (a call made
// from inside another, through a JS callback, is counted, its time is already its caller's).
class Tally {
  calls = new Map();
  count = 0;
  ms = 0;
  depth = 0;
  events = [];

  constructor(maxEvents, origin) {
    this.maxEvents = maxEvents;
    this.origin = origin;
  }

  wrap(original, name) {
    const tally = this;
    return function crossing(...args) {
      ++tally.depth;
      const begin = now();
      try {
        return original.apply(this, args);
      } finally {
        const end = now();
        --tally.depth;
        tally.add(name, begin, end);
      }
    };
  }

  add(name, begin, end) {
    ++this.count;
    const entry = this.calls.get(name) ?? { name, count: 0, ms: 0 };
    ++entry.count;
    this.calls.set(name, entry);
    if (this.depth > 0) return;
    entry.ms += end - begin;
    this.ms += end - begin;
    if (this.events.length < this.maxEvents) this.events.push([name, begin - this.origin, end - begin]);
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

// The JS timer's cost per crossing, in ns: `inside` lands in the timed interval, `outside` in the
// caller's time (the median of 21 batches of the module's cheapest call, bare and timed).
function calibrateCrossings(core, calls = 100000) {
  const bare = core.profilerEmptyCall;
  const inside = [];
  const outside = [];
  const perBatch = Math.ceil(calls / 21);
  for (let b = 0; b < 21; ++b) {
    const tally = new Tally(0, 0);
    const timed = tally.wrap(bare, 'calibration');
    let t = now();
    for (let i = 0; i < perBatch; ++i) bare();
    const bareMs = now() - t;
    t = now();
    for (let i = 0; i < perBatch; ++i) timed();
    const timedMs = now() - t;
    inside.push(((tally.ms - bareMs) * 1e6) / perBatch);
    outside.push(((timedMs - tally.ms) * 1e6) / perBatch);
  }
  return { inside: Math.max(0, median(inside)), outside: Math.max(0, median(outside)) };
}

// A finished profile: the report (as `sysgym profile --json` has it, with `crossings`), its
// table as text, and the timeline with the JS calls beside the core's scopes.
export class Profile {
  #trace;

  constructor(report, text, trace, result) {
    this.report = report;
    this.text = text;
    this.result = result;
    this.#trace = trace;
  }

  // Chrome trace-event JSON (an object): the core's scopes on one track, the calls into the
  // module on another; Perfetto and chrome://tracing open it.
  chromeTrace() {
    return this.#trace;
  }
}

function traceWithCalls(coreTrace, tally) {
  const named = (tid, name) => ({ name: 'thread_name', ph: 'M', pid: 1, tid, args: { name } });
  const calls = tally.events.map(([name, begin, ms]) => ({
    name, cat: 'js-wasm boundary', ph: 'X', ts: begin * 1e3, dur: ms * 1e3, pid: 1, tid: 2,
  }));
  return {
    ...coreTrace,
    traceEvents: [named(1, 'core (WebAssembly)'), named(2, 'JS calls into the module'), ...coreTrace.traceEvents, ...calls],
  };
}

// A report (fields added or not) as the table `sysgym profile` prints.
export function reportText(core, report) {
  const out = core.profileReportText(JSON.stringify(report));
  if (out === '') throw lastError(core);
  return out;
}

// sysgym.profile(fn, {maxEvents}): awaits fn() with profiling on; a Profile (its `result` is fn's).
// One profile at a time per module. When fn throws, the error passes through; with
// {partial: true} the Profile of what ran comes back instead, marked partial, with `error` set.
export async function profile(core, fn, { maxEvents = 0, partial = false } = {}) {
  if (typeof fn !== 'function') throw new ApiMisuseError('profile: give the function to profile');
  if (!Number.isInteger(maxEvents) || maxEvents < 0) throw new ApiMisuseError(`profile: maxEvents must be a whole number >= 0, got ${maxEvents}`);
  const overhead = calibrateCrossings(core);
  const handle = core.ProfilerHandle.start(maxEvents);
  if (!handle) throw lastError(core);
  const tally = new Tally(maxEvents, now());
  const originals = boundFunctions(core).map(([owner, key, name]) => {
    const original = owner[key];
    owner[key] = tally.wrap(original, name);
    return () => { owner[key] = original; };
  });
  let result;
  let error;
  try {
    result = await fn();
  } catch (e) {
    error = e;
  } finally {
    for (const restore of originals) restore();
    handle.stop();
  }
  try {
    if (error !== undefined && !partial) throw error;
    const crossings = {
      count: tally.count,
      measured_ns: tally.ms * 1e6,
      inside_ns: overhead.inside,
      outside_ns: overhead.outside,
      calls: [...tally.calls.values()].sort((a, b) => b.ms - a.ms),
    };
    const json = handle.reportJson(JSON.stringify(crossings));
    if (json === '') throw lastError(core);
    const report = JSON.parse(json);
    report.partial = error !== undefined;
    const out = new Profile(report, reportText(core, report), traceWithCalls(JSON.parse(handle.chromeTraceJson()), tally), result);
    if (error !== undefined) out.error = error;
    return out;
  } finally {
    handle.delete();
  }
}

// Chrome trace-event JSON (`sysgym profile --chrome-trace`, `profile.chromeTrace()`) as the
// timeline draws it: the complete events as [name, category, start ms, duration ms, track]
// (track 0: the core's scopes, on thread 1; 1: anything else, such as the JS calls into the
// module), in start order, outer scopes before the inner ones that start with them.
export function timelineEvents(trace) {
  return trace.traceEvents
    .filter((e) => e.ph === 'X' && Number.isFinite(e.ts) && Number.isFinite(e.dur))
    .map((e) => [String(e.name), String(e.cat ?? ''), e.ts / 1e3, e.dur / 1e3, e.tid === 1 ? 0 : 1])
    .sort((a, b) => a[2] - b[2] || b[3] - a[3]);
}

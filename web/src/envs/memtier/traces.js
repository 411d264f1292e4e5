// memtier's data in the page: the shipped trace pairs of the catalogue, trace files a visitor
// drops, and loading either into the worker (sysgym.memtier.addTraces / addPrepared) once.
import { FileProblem } from '../../shell/files.js';

const loaded = new WeakMap(); // worker client -> names of the traces it holds

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

// A shipped trace is registered under the name the native tool gives it (the repository's
// paths), so that episodes recorded natively replay here and exported ones replay natively.
export function shippedTrace(entry, base = '') {
  if (entry.synthetic) return { name: entry.trace, source: null };
  return { name: entry.trace, source: { urls: entry.files.map((f) => `${base}${f}`) } };
}

// A trace name's files without their folders: "a/x.ddr.bin,b/x.hbm.bin" -> "x.ddr.bin,x.hbm.bin".
export function fileNames(trace) {
  return String(trace).split(',').map((p) => p.trim().split('/').pop()).join(',');
}

// The shipped trace that a recorded episode's "trace" names: the same pair of file names,
// wherever the recording's paths pointed.
export function findShipped(catalogue, trace) {
  return catalogue.traces.find((t) => t.trace === trace || fileNames(t.trace) === fileNames(trace));
}

// A short name for captions: "data/real/xz.ddr.bin,data/real/xz.hbm.bin" -> "xz".
export function displayName(trace) {
  return String(trace).split(',')[0].split('/').pop().replace(/\.ddr\.\w+$/, '');
}

// Loads trace `t` ({name, source, files}) into the worker unless it holds it. `source`:
// {urls: [ddr, hbm]}, {ddr, hbm} bytes or {prepared} bytes; null for synth: traces.
export async function ensureTrace(client, t) {
  const held = loaded.get(client) ?? new Set();
  loaded.set(client, held);
  if (!t.source || held.has(t.name)) return;
  const source = t.source.urls ? await Promise.all(t.source.urls.map(fetchBytes)).then(([ddr, hbm]) => ({ ddr, hbm })) : t.source;
  const call = source.prepared ? { method: 'addPrepared', args: [t.name, source.prepared] }
    : { method: 'addTraces', args: [t.name, source.ddr, source.hbm] };
  const transfer = Object.values(source).map((bytes) => bytes.buffer);
  try {
    await client.request('extra', { family: 'memtier', ...call }, null, transfer);
  } catch (e) {
    // Name the files: the core's message names the trace only by its role.
    e.message = `${t.files?.length ? t.files.join(' + ') : t.name}: ${e.message}`;
    throw e;
  }
  held.add(t.name);
}

// Dropped files that are not JSON: a raw pair (one name with "ddr", one with "hbm") or one
// preprocessed pair. Returns {trace, problems}: trace is null or {name, label, files, source}.
export async function droppedTrace(files) {
  const problems = [];
  const sides = { ddr: [], hbm: [], other: [] };
  for (const file of files) sides[/ddr/i.test(file.name) ? 'ddr' : /hbm/i.test(file.name) ? 'hbm' : 'other'].push(file);
  let trace = null;
  if (sides.ddr.length === 1 && sides.hbm.length === 1) {
    const [ddr, hbm] = [sides.ddr[0], sides.hbm[0]];
    const bytes = await Promise.all([ddr.arrayBuffer(), hbm.arrayBuffer()]);
    trace = { name: `${ddr.name},${hbm.name}`, label: `${ddr.name} + ${hbm.name}`, files: [ddr.name, hbm.name],
      source: { ddr: new Uint8Array(bytes[0]), hbm: new Uint8Array(bytes[1]) } };
  } else if (sides.ddr.length + sides.hbm.length > 0) {
    const named = [...sides.ddr, ...sides.hbm].map((f) => f.name).join(', ');
    problems.push(new FileProblem(named, 'a trace pair is one file with "ddr" and one with "hbm" in its name, dropped together'));
  }
  if (sides.other.length === 1 && !trace) {
    const [file] = sides.other;
    trace = { name: file.name, label: file.name, files: [file.name], source: { prepared: new Uint8Array(await file.arrayBuffer()) } };
  } else {
    for (const f of sides.other) problems.push(new FileProblem(f.name, 'not a trace pair member (no "ddr" or "hbm" in its name) nor a single preprocessed pair'));
  }
  return { trace, problems };
}

// Builds the static site in web/dist: the playground (index.html), the docs page with two
// players (docs.html), the README and docs/ as HTML pages (docs/, with live players), the worker bundling the WebAssembly package, the shipped traces and
// policies, and catalogue.json describing them. Everything is local: the site works offline.
//
//   node web/build.mjs [--package DIR] [--out DIR]
//   node web/build.mjs --player [--package DIR]   the embeddable player alone, into the npm
//       package's player/ folder: player.js, its chunks, the worker and a catalogue whose shipped
//       traces are the package's own data/ (the wasm build runs this after linking)
import * as esbuild from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { buildDocsSite } from './docs_site.mjs';

const web = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(web, '..');
const { values: args } = parseArgs({
  options: {
    package: { type: 'string', default: process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package') },
    out: { type: 'string' },
    player: { type: 'boolean', default: false },
  },
});
args.out ??= args.player ? path.join(path.resolve(args.package), 'player') : path.join(web, 'dist');

const packageEntry = path.join(path.resolve(args.package), 'index.mjs');
if (!fs.existsSync(packageEntry)) {
  console.error(`build: ${packageEntry} is missing: build the WebAssembly package first (cmake --build --preset wasm)`);
  process.exit(1);
}

// The shipped learned policies: every folder of data/policies with a manifest.json, which lists
// its files (the page offers each on the env it was trained on).
const POLICY_DIRS = fs.readdirSync(path.join(root, 'data/policies'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && fs.existsSync(path.join(root, 'data/policies', e.name, 'manifest.json')))
  .map((e) => `data/policies/${e.name}`).sort();
const HIGHS_ENTRY = path.join(web, 'node_modules/highs/build/highs.mjs');

const SYNTHETIC = [
  ['synth:phased', 'phased: four hot sets in turn (100 k samples)'],
  ['synth:stream', 'stream: a sweep over the footprint (100 k samples)'],
  ['synth:stencil', 'stencil: neighbouring rows together (100 k samples)'],
  ['synth:random', 'random: uniform accesses (100 k samples)'],
  ['synth:random:1000000', 'random, 1 M samples (a large trace)'],
];

// inline's shipped programs (those the manifest does not mark "shipped": false), loaded into the
// worker's data under the names the core looks for (inline/NAME.json) when a visitor picks one.
// `dir`: where their files are, relative to the page (the package's player reads ../data/inline).
function inlinePrograms(out, dir) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'data/inline/manifest.json'), 'utf8'));
  const programs = manifest.programs.filter((p) => p.shipped !== false);
  if (dir === 'data/inline') {
    fs.mkdirSync(path.join(out, dir), { recursive: true });
    for (const f of ['manifest', ...programs.map((p) => p.name)]) {
      fs.copyFileSync(path.join(root, 'data/inline', `${f}.json`), path.join(out, dir, `${f}.json`));
    }
  }
  return {
    manifest: `${dir}/manifest.json`,
    programs: programs.map((p) => ({ name: p.name, split: p.split, origin: p.origin, file: `${dir}/${p.name}.json` })),
  };
}

// The shipped training profiles (data/profiles/, written by its regenerate.mjs): the runs the
// playground offers to profile in the browser, beside their native and Node reports.
function profiles(out) {
  const dir = path.join(root, 'data/profiles');
  fs.mkdirSync(path.join(out, 'profiles'), { recursive: true });
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => {
    fs.copyFileSync(path.join(dir, f), path.join(out, 'profiles', f));
    const { run } = JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
    return { ...run, file: `profiles/${f}` };
  });
}

// Shipped traces under the names the native tool uses for them (repository-relative paths).
// `dataDir`: where the traces' files are, relative to the page (the site copies them into its
// data/; the package's player reads the package's own ../data/real). Policies ship with the site.
function catalogue(out, { dataDir = 'data', inlineDir = 'data/inline', withPolicies = true } = {}) {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'data/real/manifest.json'), 'utf8'));
  const copy = dataDir === 'data';
  if (copy) fs.mkdirSync(path.join(out, 'data'), { recursive: true });
  const traces = manifest.traces.map((t) => {
    const files = ['ddr', 'hbm'].map((side) => `${t.name}.${side}.bin`);
    if (copy) for (const f of files) fs.copyFileSync(path.join(root, 'data/real', f), path.join(out, 'data', f));
    return {
      id: t.name,
      label: `${t.name}: ${t.program.split(',')[0]}${t.program.includes('(') ? ')' : ''}`,
      about: `${t.program}. ${t.input}.`,
      trace: files.map((f) => `data/real/${f}`).join(','),
      files: files.map((f) => `${dataDir}/${f}`),
    };
  });
  for (const [trace, label] of SYNTHETIC) {
    traces.push({ id: trace, label, about: 'Generated in the browser by the core (synth.hpp).', trace, synthetic: true });
  }
  if (withPolicies) fs.mkdirSync(path.join(out, 'policies'), { recursive: true });
  const policies = (withPolicies ? POLICY_DIRS : []).flatMap((dir) => {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, dir, 'manifest.json'), 'utf8'));
    const heldOut = heldOutStanding(dir);
    // Labelled with the held-out figure, and the best on held-out work first: the page's default.
    return manifest.policies.map((p) => {
      fs.copyFileSync(path.join(root, dir, p.file), path.join(out, 'policies', p.file));
      const figure = heldOut.get(p.file);
      const label = `${p.label} (shipped)${figure ? `: ${figure.text}` : ''}`;
      return { id: p.file.replace(/\.json$/, ''), label, file: `policies/${p.file}`, heldOut: figure?.mean };
    }).sort((a, b) => (b.heldOut ?? -Infinity) - (a.heldOut ?? -Infinity));
  });
  const inline = inlinePrograms(out, inlineDir);
  const runs = withPolicies ? profiles(out) : [];
  fs.writeFileSync(path.join(out, 'catalogue.json'), `${JSON.stringify({ traces, policies, inline, profiles: runs }, null, 2)}\n`);
  return { traces: traces.length, policies: policies.length };
}

// Each shipped policy's mean of its family's primary metric on the held-out protocol
// (held-out.json, as data/policies/held_out.mjs records `sysgym eval ENV --split held-out`), by
// file name, with the text its label shows.
function heldOutStanding(dir) {
  const file = path.join(root, dir, 'held-out.json');
  const out = new Map();
  if (!fs.existsSync(file)) return out;
  const { metric, summary } = JSON.parse(fs.readFileSync(file, 'utf8'));
  for (const s of summary) {
    const text = metric === 'gap_closed' ? `${(100 * s.mean).toFixed(1)} % of the gap closed on held-out work`
      : metric === 'best_speedup' ? `${s.mean.toFixed(2)}x on held-out problems (cost model)`
        : `${metric} ${s.mean.toFixed(3)} on held-out work`;
    out.set(s.policy.slice('learned:'.length), { mean: s.mean, text });
  }
  return out;
}

async function build() {
  const out = path.resolve(args.out);
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const entryPoints = args.player ? { player: 'player.js', worker: 'shell/worker.js' }
    : { playground: 'playground.js', player: 'player.js', worker: 'shell/worker.js' };
  const result = await esbuild.build({
    entryPoints,
    absWorkingDir: path.join(web, 'src'),
    outdir: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    keepNames: true, // error classes are named by their class: ConfigError, not a minified name
    sourcemap: !args.player, // the package's player travels without maps
    metafile: true,
    splitting: true, // the playground and the player share ECharts as chunks (next to worker.js, which the
    // client finds relative to its own chunk)
    // The playground solves tensorplace's ILP with HiGHS in the worker (a chunk loaded on first
    // use, its highs.wasm beside it); the player never solves, so it leaves HiGHS out.
    alias: { sysgym: packageEntry, ...(args.player ? {} : { highs: HIGHS_ENTRY }) },
    // The Emscripten glue requires Node's modules only on its Node path, never in a browser.
    external: ['fs', 'path', 'crypto', 'url', 'module', 'worker_threads', 'node:*', ...(args.player ? ['highs'] : [])],
    logLevel: 'warning',
  });
  if (!args.player) {
    for (const file of ['index.html', 'docs.html', 'styles.css']) {
      fs.copyFileSync(path.join(web, 'src', file), path.join(out, file));
    }
    fs.copyFileSync(path.join(path.dirname(HIGHS_ENTRY), 'highs.wasm'), path.join(out, 'highs.wasm'));
  }
  const shipped = args.player ? catalogue(out, { dataDir: '../data/real', inlineDir: '../data/inline', withPolicies: false }) : catalogue(out);
  const docs = args.player ? [] : buildDocsSite(root, out);
  const sizes = Object.entries(result.metafile.outputs)
    .filter(([f]) => f.endsWith('.js'))
    .map(([f, o]) => `${path.basename(f)} ${(o.bytes / 1024).toFixed(0)} KiB`);
  console.log(`web: built ${path.relative(process.cwd(), out) || out} (${sizes.join(', ')}; ${shipped.traces} traces, ${shipped.policies} policies${args.player ? '' : `, ${docs.length} docs pages`})`);
}

await build();

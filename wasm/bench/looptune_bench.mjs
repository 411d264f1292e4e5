// The looptune executor in WebAssembly against the native one, all sides in one run:
//   node wasm/bench/looptune_bench.mjs [RUNS] [--chromium]
// The executor's benchmark nests (each kernel untuned and as two searches tune it: the same
// nests in both builds) measured by the npm package in this Node, by `sysgym looptune bench
// --executor`, and with --chromium in the playground's worker in headless Chromium (web/dist
// built), in turn, RUNS times each (default 3): GFLOPS as min / median over the runs (each run's
// figure the fastest of its repetitions), and each engine's ratio to native of the medians.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { load } = await import(path.join(process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package'), 'index.mjs'));
const native = process.env.SYSGYM_NATIVE ?? path.join(root, 'build/native-release/sysgym');
const args = process.argv.slice(2);
const chromium = args.includes('--chromium');
const runs = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);
const sysgym = await load();

// The playground's worker in headless Chromium, asked for the benchmark as a view asks for an
// extra.
async function chromiumSession() {
  const { startBrowser } = await import(path.join(root, 'web/test/browser.mjs'));
  const browser = await startBrowser();
  const page = await browser.page();
  await page.goto(`${browser.url}docs.html`);
  return {
    run: () => page.evaluate(() => new Promise((resolve, reject) => {
      const worker = new Worker(new URL('worker.js', document.baseURI), { type: 'module' });
      worker.onmessage = ({ data }) => {
        if (data.type === 'done') resolve(data.result);
        if (data.type === 'error') reject(new Error(data.message));
        if (data.type !== 'event') worker.terminate();
      };
      worker.postMessage({ type: 'extra', id: 1, family: 'looptune', method: 'executorBench', args: [] });
    })),
    close: () => browser.close(),
  };
}

function nativeRun() {
  const r = spawnSync(native, ['looptune', 'bench', '--executor', '--json'], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`sysgym looptune bench --executor failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const engines = { native: [], node: [] };
const browser = chromium ? await chromiumSession() : null;
if (browser) engines.chromium = [];
for (let i = 0; i < runs; i += 1) {
  engines.node.push(sysgym.looptune.executorBench());
  engines.native.push(nativeRun());
  if (browser) engines.chromium.push(await browser.run());
}
await browser?.close();
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
const fmt = (v) => `${Math.min(...v).toFixed(2).padStart(6)} / ${median(v).toFixed(2).padStart(6)}`;
const names = Object.keys(engines);
console.log(`looptune executor, ${runs} runs each (GFLOPS min / median; the ratio of the medians to native)`);
console.log(`${'kernel'.padEnd(22)} ${'found by'.padEnd(9)} ${'micro-kernel'.padEnd(15)} ${names.map((n) => n.padStart(15)).join(' ')}  ${names.slice(1).map((n) => `${n}/native`).join(' ')}`);
const ratios = Object.fromEntries(names.slice(1).map((n) => [n, []]));
const reference = engines.native[0];
for (let n = 0; n < reference.length; n += 1) {
  for (const name of names.slice(1)) {
    const other = engines[name][0][n];
    if (other.kernel !== reference[n].kernel || JSON.stringify(other.loops) !== JSON.stringify(reference[n].loops)) {
      throw new Error(`nest ${n} differs between native and ${name}: the searches must decide alike`);
    }
  }
  const figures = names.map((name) => engines[name].map((r) => r[n].gflops));
  const line = names.slice(1).map((name, i) => {
    const r = median(figures[i + 1]) / median(figures[0]);
    ratios[name].push(r);
    return r.toFixed(2).padStart(name.length + 7);
  });
  const e = reference[n];
  console.log(`${e.kernel.padEnd(22)} ${e.found_by.padEnd(9)} ${e.micro_kernel.padEnd(15)} ${figures.map(fmt).join(' ')}  ${line.join(' ')}`);
}
for (const [name, r] of Object.entries(ratios)) {
  const geo = Math.exp(r.reduce((s, x) => s + Math.log(x), 0) / r.length);
  console.log(`${name}/native: geometric mean ${geo.toFixed(2)}, worst ${Math.min(...r).toFixed(2)}, best ${Math.max(...r).toFixed(2)}`);
}

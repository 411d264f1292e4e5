// Fetches the inline family's real programs (manifest.json) into src/NAME, from npm packages at
// pinned versions (`npm pack`: the tarball only, no install scripts) or Debian source packages
// (`apt-get source`, unpacked with Debian's patches) plus this folder's drivers, and extracts
// NAME.json from each with `sysgym inline extract`.
// Usage: node data/inline/regenerate.mjs [--sources-only] [--sysgym PATH] [name ...]
// --sources-only fetches the sources (what `sysgym inline measure` on a shipped program needs).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const take = (flag) => {
  const at = args.indexOf(flag);
  return at < 0 ? undefined : args.splice(at, 2)[1];
};
const sourcesOnly = args.includes('--sources-only') && args.splice(args.indexOf('--sources-only'), 1);
const sysgym = path.resolve(take('--sysgym') ?? path.join(here, '../../build/native-release/sysgym'));
const manifest = JSON.parse(fs.readFileSync(path.join(here, 'manifest.json'), 'utf8'));
const unknown = args.filter((n) => !manifest.programs.some((p) => p.name === n));
if (unknown.length > 0) {
  console.error(`regenerate.mjs: no program ${unknown.join(', ')} in manifest.json`);
  process.exit(1);
}
const cache = path.join(here, 'src', '.packages');
fs.mkdirSync(cache, { recursive: true });

// The package's tarball, fetched once.
function tarball(spec) {
  const file = path.join(cache, `${spec.replace('@', '-').replace('/', '-')}.tgz`);
  if (!fs.existsSync(file)) {
    const out = execFileSync('npm', ['pack', spec, '--json', '--pack-destination', cache], { encoding: 'utf8' });
    fs.renameSync(path.join(cache, JSON.parse(out)[0].filename), file);
  }
  return file;
}

// The machine's own Debian archives as deb-src entries, in an apt state of the cache's: the
// system's sources and lists stay as they are.
function aptOptions() {
  const root = path.join(cache, 'apt');
  const parts = path.join(root, 'parts');
  fs.mkdirSync(path.join(root, 'lists', 'partial'), { recursive: true });
  fs.mkdirSync(parts, { recursive: true });
  const etc = '/etc/apt';
  const listed = [path.join(etc, 'sources.list'), ...(fs.existsSync(path.join(etc, 'sources.list.d'))
    ? fs.readdirSync(path.join(etc, 'sources.list.d')).map((f) => path.join(etc, 'sources.list.d', f)) : [])];
  for (const file of listed.filter((f) => fs.existsSync(f))) {
    const text = fs.readFileSync(file, 'utf8');
    if (file.endsWith('.sources')) {
      fs.writeFileSync(path.join(parts, path.basename(file)), text.replace(/^Types:.*$/gm, 'Types: deb-src'));
    } else if (file.endsWith('.list')) {
      const lines = text.split('\n').filter((l) => /^deb\s/.test(l)).map((l) => l.replace(/^deb/, 'deb-src'));
      fs.writeFileSync(path.join(parts, `${path.basename(file, '.list')}-src.list`), `${lines.join('\n')}\n`);
    }
  }
  return ['-o', 'Dir::Etc::SourceList=/dev/null', '-o', `Dir::Etc::SourceParts=${parts}`,
    '-o', `Dir::State::Lists=${path.join(root, 'lists')}`, '-o', `Dir::Cache=${path.join(root, 'cache')}`];
}

// A Debian source package ("name=version"), fetched and unpacked once; the unpacked tree's path.
function debianSource(spec) {
  const tree = path.join(cache, spec.replace('=', '_'));
  if (!fs.existsSync(tree)) {
    const options = aptOptions();
    const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-inline-deb-'));
    fs.chmodSync(downloads, 0o777);  // apt downloads as its own user where it can
    execFileSync('apt-get', [...options, '-qq', 'update'], { stdio: 'inherit' });
    execFileSync('apt-get', [...options, '-qq', 'source', '--download-only', spec], { cwd: downloads, stdio: 'inherit' });
    const dsc = fs.readdirSync(downloads).find((f) => f.endsWith('.dsc'));
    execFileSync('dpkg-source', ['--no-check', '-x', dsc, tree], { cwd: downloads, stdio: 'ignore' });
    fs.rmSync(downloads, { recursive: true, force: true });
  }
  return tree;
}

// The manifest's `files` (source path: path in src/NAME) from an unpacked source tree.
function copyFiles(tree, files, dir) {
  for (const [from, to] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
    fs.copyFileSync(path.join(tree, from), path.join(dir, to));
  }
}

function fetchSources(p) {
  const dir = path.join(here, 'src', p.name);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  if (p.package) {
    const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-inline-'));
    execFileSync('tar', ['xzf', tarball(p.package), '-C', unpacked, ...Object.keys(p.files).map((f) => `package/${f}`)]);
    copyFiles(path.join(unpacked, 'package'), p.files, dir);
    fs.rmSync(unpacked, { recursive: true, force: true });
  }
  if (p.debian) copyFiles(debianSource(p.debian), p.files, dir);
  for (const d of p.drivers) fs.copyFileSync(path.join(here, 'drivers', d), path.join(dir, d));
  return dir;
}

for (const p of manifest.programs) {
  if (args.length > 0 && !args.includes(p.name)) continue;
  console.error(`${p.name}: sources from ${p.package || (p.debian && `Debian's ${p.debian}`) || 'this folder'}`);
  const dir = fetchSources(p);
  if (sourcesOnly) continue;
  const flags = ['inline', 'extract', '--source', dir, '--units', p.units.join(','), '--name', p.name,
    '--origin', p.origin, '--licence', p.licence, '-o', path.join(here, `${p.name}.json`)];
  // An empty value would make the flag take the next argument.
  for (const key of ['cflags', 'ldflags', 'run_args']) {
    if (p[key]) flags.push(`--${key.replace('_', '-')}=${p[key]}`);
  }
  const started = Date.now();
  execFileSync(sysgym, flags, { stdio: 'inherit' });
  console.error(`${p.name}: extracted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

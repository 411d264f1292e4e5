// docs/adding-a-family.md's list of shared edits is true: in a scratch copy of the checkout, the
// line walk (tests/env/line_walk_env.hpp) becomes a built-in family `linewalk` through its own
// folders (tests/docs/new_family/) and exactly the edits the page's table names, no other file.
// The tool built from the copy must list, check, describe and run it; the docs of the copy must
// pass the doc test (its page's examples, the README row, docs/cli.md unchanged) and build into
// the docs site. A shared file that a new family needs and the page does not name fails here.
// The copy is built with clang at -O0, the tool only: about 60 s on two cores and 110 s of CPU
// (g++ took 95 s and 180 s).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const family = 'linewalk';
const template = path.join(root, 'tests/docs/new_family');

function sh(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...options });
  const tail = (text) => (text ?? '').split('\n').slice(-30).join('\n');
  assert.equal(result.status, 0,
    `${command} ${args.join(' ')} failed (exit ${result.status}, ${result.error ?? result.signal ?? ''}):\n` +
    `${tail(result.stdout)}\n${tail(result.stderr)}`);
  return result.stdout;
}

// The files of the page's first table ("What a family must touch outside its own folders (N
// files)"), with foo read as the family's name, and that N.
function documentedEdits() {
  const page = fs.readFileSync(path.join(root, 'docs/adding-a-family.md'), 'utf8');
  const lead = page.match(/^What a family must touch outside its own folders \((\d+) files\):$/m);
  assert.ok(lead, 'docs/adding-a-family.md: no line "What a family must touch outside its own folders (N files):"');
  const rows = page.slice(lead.index).split('\n').slice(1)
    .filter((line, i, lines) => line.startsWith('|') && lines.slice(0, i).every((l) => l === '' || l.startsWith('|')));
  const files = rows.slice(2).flatMap((row) => [...row.split('|')[1].matchAll(/`([^`]+)`/g)].map((m) => m[1]))
    .map((file) => file.replace(/\bfoo\b/g, family));
  return { count: Number(lead[1]), files: files.sort() };
}

// One edit: the text after `edit(text)`, which must change it (a pattern that no longer matches
// is a page that no longer says how).
function editFile(scratch, file, edit, edited) {
  const where = path.join(scratch, file);
  const before = fs.existsSync(where) ? fs.readFileSync(where, 'utf8') : null;
  const after = edit(before);
  assert.notEqual(after, before, `${file}: the edit for a new family found nothing to change`);
  fs.writeFileSync(where, after);
  edited.add(file);
}

function insertAfterLast(text, pattern, line) {
  const lines = text.split('\n');
  const last = lines.findLastIndex((l) => pattern.test(l));
  if (last < 0) return text;
  lines.splice(last + 1, 0, line);
  return lines.join('\n');
}

function addFamily(scratch) {
  // The family's own folders: core/linewalk and its page.
  const own = path.join(scratch, 'core', family);
  fs.mkdirSync(own);
  for (const name of ['CMakeLists.txt', 'linewalk_family.hpp', 'linewalk_family.cpp']) {
    fs.copyFileSync(path.join(template, name), path.join(own, name));
  }
  fs.copyFileSync(path.join(root, 'tests/env/line_walk_env.hpp'), path.join(own, 'line_walk_env.hpp'));

  const edited = new Set();
  editFile(scratch, 'CMakeLists.txt', (t) => t.replace(/set\(SYSGYM_FAMILIES ([^)]*)\)/, `set(SYSGYM_FAMILIES $1 ${family})`), edited);
  editFile(scratch, 'core/builtins/builtins.cpp', (t) => insertAfterLast(
    insertAfterLast(t, /^#include "\w+\/\w+_family\.hpp"$/, `#include "${family}/${family}_family.hpp"`),
    /^\s+\{"\w+", \w+::register_family\},$/, `      {"${family}", ${family}::register_family},`), edited);
  editFile(scratch, `docs/envs/${family}.md`, () => fs.readFileSync(path.join(template, `${family}.md`), 'utf8'), edited);
  editFile(scratch, 'web/docs_site.mjs', (t) => t.replace(/(\['Environments', \[[^\]]*)\]/, `$1, 'docs/envs/${family}.md']`), edited);
  editFile(scratch, 'README.md', (t) => insertAfterLast(t, /^\| `\w+-v\d+` \|/,
    `| \`${family}-v0\` | which way to step on a line | 1 at the end, −0.01 a step; **position** | none | a test family | [docs/envs/${family}.md](docs/envs/${family}.md) |`), edited);
  return [...edited].sort();
}

test('a family added through the edits docs/adding-a-family.md lists builds, runs and is documented', { timeout: 1200_000 }, () => {
  const { count, files } = documentedEdits();
  assert.equal(files.length, count, `docs/adding-a-family.md says ${count} files and its table names ${files.length}: ${files.join(', ')}`);

  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'sysgym-new-family-'));
  try {
    // The checkout as it stands (tracked and new files, not build/ or node_modules/).
    const tracked = sh('git', ['-C', root, 'ls-files', '-z', '-co', '--exclude-standard']).split('\0').filter(Boolean);
    for (const file of tracked) {
      if (!fs.existsSync(path.join(root, file))) continue;  // deleted in the work tree
      fs.mkdirSync(path.join(scratch, path.dirname(file)), { recursive: true });
      fs.copyFileSync(path.join(root, file), path.join(scratch, file));
    }
    assert.deepEqual(addFamily(scratch), files, 'the shared files a new family needed are not the ones docs/adding-a-family.md lists');

    // Where the doc test looks for the tool; -O0 and the tool alone: this build proves that the
    // family compiles and registers, not how fast it runs.
    const build = path.join(scratch, 'build/native-release');
    sh('cmake', ['-S', scratch, '-B', build, '-G', 'Ninja', '-DCMAKE_CXX_COMPILER=clang++-14', '-DCMAKE_BUILD_TYPE=Debug',
      '-DCMAKE_CXX_FLAGS_DEBUG=-O0 -g0', '-DCMAKE_UNITY_BUILD=ON', '-DCMAKE_UNITY_BUILD_BATCH_SIZE=16',
      '-DSYSGYM_BUILD_TESTS=OFF', '-DSYSGYM_BUILD_BENCHMARKS=OFF']);
    sh('cmake', ['--build', build, '--target', 'sysgym', '-j', String(os.availableParallelism())]);
    const tool = path.join(build, 'sysgym');

    const ids = JSON.parse(sh(tool, ['list', '--json'])).map(({ id }) => id);
    assert.ok(ids.includes(`${family}-v0`) && ids.includes('memtier-v0'), `sysgym list: ${ids.join(', ')}`);
    sh(tool, ['check', `${family}-v0`]);
    const described = JSON.parse(sh(tool, ['describe', `${family}-v0`, '--json']));
    assert.ok(described.policies.some((p) => (p.name ?? p) === 'walk-right'), JSON.stringify(described.policies));
    const episode = JSON.parse(sh(tool, ['run', `${family}-v0`, 'length=8', '--policy', 'walk-right', '--json']));
    assert.equal(episode.position, 7, JSON.stringify(episode));

    // The page's config table names the schema's keys in order (the catalogue test checks each
    // built-in page's table cell by cell; that test is not built here).
    const page = fs.readFileSync(path.join(scratch, `docs/envs/${family}.md`), 'utf8');
    const table = page.split(`<!-- config ${family}-v0:`)[1].split('<!-- config: end -->')[0];
    assert.deepEqual([...table.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]),
      described.config_schema.map((key) => key.name));

    // The docs of the copy: the new page's examples, every family's README row, docs/cli.md as
    // the copy's tool prints its help; then the site, which refuses a page its navigation lacks.
    sh('node', ['--test', 'tests/docs/doctest.test.mjs'],
      { cwd: scratch, env: { ...process.env, SYSGYM_DOCS: `docs/envs/${family}.md` } });
    fs.symlinkSync(path.join(root, 'web/node_modules'), path.join(scratch, 'web/node_modules'));
    const site = sh('node', ['--input-type=module', '-e',
      `import { buildDocsSite } from './web/docs_site.mjs';
       console.log(JSON.stringify(buildDocsSite('.', 'build/site').map((p) => p.page)));`], { cwd: scratch });
    assert.ok(JSON.parse(site).includes(`docs/envs/${family}.html`), site);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});

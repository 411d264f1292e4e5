// Every example of the README and docs/ runs as written (Rust's doctests, for Markdown):
// `sh` blocks under bash, `js` blocks as ES modules under Node with the npm package installed,
// `python` blocks under Debian's python3 with the Python package; `cpp` blocks are the files
// tests/CMakeLists.txt compiles and runs (same-as); markers (blocks.mjs) skip a block that needs
// what CI has not, saying why, or shrink a long run. The blocks of one page run in order in one
// fresh folder, as a reader would type them: a later block may use what an earlier one wrote.
// Needs the release build, the npm package and the Python module (./sysgym.sh test builds them).
// SYSGYM_DOCS=README.md,docs/envs/memtier.md runs some pages only.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { fencedBlocks, relativeLinks, runnableCode } from './blocks.mjs';
import { cliReference, page as cliPage, withReference } from './cli_reference.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const tool = path.join(root, 'build/native-release');
const npmPackage = path.join(root, 'build/wasm/package');
const pythonModule = path.join(root, 'build/native-release/python');
const python = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const kRunnable = new Set(['sh', 'js', 'python']);
const kChecked = new Set(['cpp']);  // each must be a same-as block (or skipped, saying why)

function pages() {
  if (process.env.SYSGYM_DOCS) return process.env.SYSGYM_DOCS.split(',');
  const found = ['README.md'];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name))) {
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) found.push(rel);
    }
  };
  walk('docs');
  return found;
}

// A folder that looks like the checkout to a reader's relative paths (data/, build/, python/)
// but takes every file the examples write.
function workFolder(page) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sysgym-doc-${path.basename(page, '.md')}-`));
  for (const name of ['data', 'build', 'python', 'tests', 'sysgym.sh']) {
    fs.symlinkSync(path.join(root, name), path.join(dir, name));
  }
  fs.mkdirSync(path.join(dir, 'node_modules/.bin'), { recursive: true });
  fs.symlinkSync(npmPackage, path.join(dir, 'node_modules/sysgym'));
  fs.symlinkSync(path.join(npmPackage, 'sysgym-cli.mjs'), path.join(dir, 'node_modules/.bin/sysgym'));
  return dir;
}

function run(block, code, dir, where) {
  const file = path.join(dir, `block-${block.line}.${{ sh: 'sh', js: 'mjs', python: 'py' }[block.language]}`);
  fs.writeFileSync(file, code);
  const command = { sh: ['bash', ['-eo', 'pipefail', file]], js: ['node', [file]],
    python: [python, [file]] }[block.language];
  const timeout = block.markers.find((m) => m.kind === 'timeout')?.seconds ?? 120;
  const result = spawnSync(command[0], command[1], {
    cwd: dir,
    encoding: 'utf8',
    timeout: timeout * 1000,
    killSignal: 'SIGKILL',
    maxBuffer: 64 << 20,
    env: {
      ...process.env,
      PATH: [tool, path.join(dir, 'node_modules/.bin'), '/usr/bin', process.env.PATH].join(':'),
      PYTHONPATH: pythonModule,
      PYTHONDONTWRITEBYTECODE: '1',
    },
  });
  // The last lines, each cut short: an uncaught error in a module may print a megabyte-long line.
  const tail = (text) => (text ?? '').split('\n').slice(-25).map((l) => l.slice(0, 400)).join('\n');
  if (result.error?.code === 'ETIMEDOUT' || result.signal === 'SIGKILL') {
    assert.fail(`${where}: still running after ${timeout} s (a 'timeout' or 'sub' marker?)\n${tail(result.stderr)}`);
  }
  assert.equal(result.status, 0,
    `${where} (${block.language}) failed with exit ${result.status}:\n${tail(result.stdout)}\n${tail(result.stderr)}`);
}

for (const page of pages()) {
  test(`every example of ${page} runs as written`, () => {
    const blocks = fencedBlocks(fs.readFileSync(path.join(root, page), 'utf8'), page);
    let dir;
    try {
      for (const block of blocks) {
        const where = `${page}:${block.line}`;
        const skip = block.markers.find((m) => m.kind === 'skip');
        const same = block.markers.find((m) => m.kind === 'same-as');
        if (skip) {
          console.log(`# ${where}: skipped: ${skip.why}`);
          continue;
        }
        if (same) {
          assert.equal(block.code, fs.readFileSync(path.join(root, same.path), 'utf8'),
            `${where}: the block differs from ${same.path}, the file the tests compile`);
          continue;
        }
        if (kChecked.has(block.language)) {
          assert.fail(`${where}: a ${block.language} block needs 'same-as FILE' (a file a test compiles) or 'skip: WHY'`);
        }
        if (!kRunnable.has(block.language)) continue;
        dir ??= workFolder(page);
        run(block, runnableCode(block, where), dir, where);
      }
    } finally {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('every relative link of the README and docs/ reaches a file of the checkout', () => {
  const broken = [];
  for (const page of pages()) {
    for (const { target, line } of relativeLinks(fs.readFileSync(path.join(root, page), 'utf8'))) {
      const file = target.split('#')[0];
      if (file && !fs.existsSync(path.resolve(root, path.dirname(page), file))) broken.push(`${page}:${line}: ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});

test("docs/cli.md's reference is every command's --help as the tool prints it", () => {
  const text = fs.readFileSync(cliPage, 'utf8');
  assert.equal(text, withReference(text, cliReference(path.join(tool, 'sysgym'))),
    'docs/cli.md is stale: run ./sysgym.sh catalogue');
});

// A family the tool registers without a page or a README row is one no newcomer finds.
test("every env family the tool lists has its page in docs/envs/ and a row in the README's table", () => {
  const listed = spawnSync(path.join(tool, 'sysgym'), ['list', '--json'], { encoding: 'utf8' });
  assert.equal(listed.status, 0, listed.stderr);
  const families = new Set(JSON.parse(listed.stdout).map(({ id }) => id.slice(0, id.lastIndexOf('-v'))));
  const rows = fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').filter((l) => l.startsWith('|'));
  const lacking = [...families].flatMap((family) => {
    const page = `docs/envs/${family}.md`;
    return [
      ...(fs.existsSync(path.join(root, page)) ? [] : [`${family}: no ${page}`]),
      ...(rows.some((row) => row.includes(`](${page})`)) ? [] : [`${family}: no row linking ${page} in README.md`]),
    ];
  });
  assert.deepEqual(lacking, []);
});

test('the README is a landing page: at most 200 lines', () => {
  const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf8').split('\n').length - 1;
  assert.ok(lines <= 200, `README.md has ${lines} lines; move detail to docs/`);
});

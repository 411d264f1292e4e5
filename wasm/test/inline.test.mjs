// inline's extras in the npm package: the cost model's figures and the call graph equal the
// native tool's (`sysgym inline estimate`) to the bit, the programs shipped in the package are
// found by name, and bad requests are named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

import { load, nativeTool } from './helpers.mjs';

const sysgym = await load();
const native = (...args) => JSON.parse(execFileSync(nativeTool, ['inline', 'estimate', ...args, '--json'], { encoding: 'utf8' }));

test('the figures of clang\'s decisions on a shipped program equal the native tool\'s', () => {
  for (const decisions of ['O2', 'Oz', 'never']) {
    const wasm = sysgym.inline.estimate({ config: { program: 'lz4' }, decisions });
    assert.deepEqual(wasm, native('program=lz4', '--decisions', decisions));
  }
  const instructions = sysgym.inline.estimate({ config: { program: 'lmdb', objective: 'instructions', size_limit: 1.05 }, decisions: 'Oz' });
  assert.deepEqual(instructions, native('program=lmdb', 'objective=instructions', 'size_limit=1.05', '--decisions', 'Oz'));
  assert.equal(sysgym.inline.estimate({ config: { program: 'lz4' }, decisions: 'Oz' }).score, 0, 'the baseline scores 0');
});

test('the call graph is the native tool\'s, and its order is the env\'s steps', () => {
  const wasm = sysgym.inline.estimate({ decisions: 'O2', graph: true });
  assert.deepEqual(wasm, native('--decisions', 'O2', '--graph'));
  const { functions, sites, order } = wasm.graph;
  assert.equal(sites.length, wasm.sites);
  assert.deepEqual([...order].sort((a, b) => a - b), sites.map((_, i) => i), 'every site decided once');
  for (const s of sites) assert.ok(s.caller < functions.length && s.callee < functions.length);
  // A function's dynamic calls are its sites' sum.
  const calls = functions.map(() => 0);
  for (const s of sites) calls[s.callee] += s.calls;
  assert.deepEqual(functions.map((f) => f.calls), calls);
  // Playing the env inlining every site by its -O2 bit in step order decides the same set.
  const env = sysgym.make('inline-v0', {});
  env.reset({ seed: 0 });
  for (const s of order) env.step(sites[s].o2 ? 1 : 0);
  assert.equal(env.summary().text_bytes, wasm.text_bytes);
  env.dispose();
});

test('a site toggled by hand moves the estimate, whether named by bits or by id', () => {
  const { graph } = sysgym.inline.estimate({ config: { program: 'lz4' }, graph: true });
  const bits = graph.sites.map((s) => (s.oz ? 1 : 0));
  const base = sysgym.inline.estimate({ config: { program: 'lz4' }, decisions: bits });
  // The hottest site clang -Oz keeps: inlining it saves dynamic calls.
  const hottest = graph.sites.map((s, i) => [s, i]).filter(([s]) => !s.oz).sort(([a], [b]) => b.calls - a.calls)[0][1];
  bits[hottest] = 1;
  const toggled = sysgym.inline.estimate({ config: { program: 'lz4' }, decisions: bits });
  assert.ok(toggled.instructions < base.instructions, `${toggled.instructions} < ${base.instructions}`);
  assert.equal(toggled.inlined, base.inlined + 1);
  const ids = graph.sites.filter((_, i) => bits[i]).map((s) => s.id);
  assert.deepEqual(sysgym.inline.estimate({ config: { program: 'lz4' }, decisions: ids }), toggled);
});

test('bad inline requests are named', () => {
  const named = (request, pattern, name = 'ConfigError') => assert.throws(() => sysgym.inline.estimate(request),
    (e) => e.name === name && pattern.test(e.message), JSON.stringify(request));
  named({ decisions: [1, 0] }, /2 bits for the \d+ call sites of 'kernels'/);
  named({ decisions: ['kernels.c|main:1:2|nothing'] }, /is no call site of 'kernels'/);
  named({ decisions: 'sometimes' }, /unknown decision set 'sometimes'/, 'UnknownNameError');
  named({ decisions: [2, ...Array(99).fill(0)] }, /bits|not a decision/);
  named({ decison: 'O2' }, /decison/);
  named({ config: { program: 'held-out' } }, /names a split/);
  named({ config: { program: 'nothere' } }, /unknown program 'nothere'/, 'UnknownNameError');
  assert.throws(() => sysgym.inline.estimate('O2'), (e) => e.name === 'ApiMisuseError');
});

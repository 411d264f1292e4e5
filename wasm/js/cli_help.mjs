// The npm bin's commands take the native tool's flags and print its help: both come from the
// native `--help` texts (docs/cli.md's reference, which the doc test keeps equal to the tool's,
// copied into the package as native_help.json when it is built). What the WebAssembly build
// cannot do is said after the native text, and refused by name.
import { createRequire } from 'node:module';

import { commandSpec, sectionNames } from './cli_parse.mjs';
import { IoError } from './errors.mjs';
import { checkOutputPath } from './node_files.mjs';

const NATIVE_HELP = createRequire(import.meta.url)('./native_help.json');

// The bin's commands, by the name the bin dispatches on, and the native command each one is.
const NATIVE_NAME = {
  list: 'list', describe: 'describe', run: 'run', compare: 'compare', check: 'check', train: 'train', eval: 'eval',
  profile: 'profile', estimate: 'memtier estimate', inspect: 'memtier inspect',
};

// Native flags the bin refuses, and why.
export const NATIVE_ONLY = {
  train: { distributed: 'MPI jobs are the native tool\'s (mpirun -np N sysgym train ... --distributed)' },
  eval: { split: 'the held-out protocol reads the shipped policies and data of the source tree (./sysgym.sh build)' },
};

// What differs in the npm package, after the native help.
const NOTES = {
  train: 'The envs step on one thread (--threads is taken and changes nothing), several times slower than the\n' +
    'native tool (docs/performance.md); the results are the same.',
  eval: 'The episodes run on one thread (--threads is taken and changes nothing); the results are the same.',
  profile: 'The report also counts the calls from JS into the WebAssembly module (the js-wasm boundary) and\n' +
    'the time in JS.',
};

function helpText(command) {
  const notes = [
    ...Object.entries(NATIVE_ONLY[command] ?? {}).map(([flag, why]) => `--${flag} is not here: ${why}.`),
    ...(NOTES[command] ? [NOTES[command]] : []),
  ];
  const native = NATIVE_HELP[NATIVE_NAME[command]];
  return notes.length === 0 ? native : `${native}\nIn the npm package (WebAssembly):\n${notes.join('\n')}\n`;
}

// Flags naming a file the command writes: checked before any work, as natively
// (native/output_flags.hpp).
const OUTPUTS = { train: ['output', 'curve'], run: ['record'], profile: ['chrome-trace'] };

function checkOutput(file, flag) {
  try {
    checkOutputPath(file);
  } catch (e) {
    throw new IoError(`${flag}: ${e.message}`);
  }
}

function spec(command) {
  const s = commandSpec(NATIVE_HELP[NATIVE_NAME[command]]);
  for (const o of s.options) if ((OUTPUTS[command] ?? []).includes(o.long)) o.check = checkOutput;
  return s;
}

export const COMMANDS = Object.fromEntries(Object.keys(NATIVE_NAME).map((command) => [command, spec(command)]));
export const HELP = Object.fromEntries(Object.keys(NATIVE_NAME).map((command) => [command, helpText(command)]));
// The native tool's commands, as its help lists them (for an unknown command's message).
export const NATIVE_COMMANDS = sectionNames(NATIVE_HELP[''], 'Subcommands');

export const USAGE = `${NATIVE_HELP['']}
In the npm package (WebAssembly): list, describe, run, compare, check, train, eval, profile,
memtier estimate and memtier inspect (also estimate and inspect), with the same arguments and
output. The other family tools run compilers, solvers or valgrind, or write large files: they
are the native tool's (./sysgym.sh build in the source tree).
`;

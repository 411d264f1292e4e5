// One command per family that trains its shipped policies again as their manifest says, one
// thread and a fixed seed each, and with --check says whether the weights come out as shipped.
//   node data/policies/retrain.mjs FAMILY [--check] [--sysgym path/to/sysgym]
// A policy's recipe is its manifest entry: `train_command`, a sysgym command line whose `-o`
// names the file (inline, looptune; run once per seed where the entry lists `seeds`), or
// `train_args`, which the family's reproduce.mjs completes with the split and the training seeds
// (memtier, tensorplace; retrained in place, so that `git diff` shows what changed).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { seedFiles } from './seed_files.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const args = process.argv.slice(2);
const at = args.indexOf('--sysgym');
const sysgym = path.resolve(at >= 0 ? args[at + 1] : path.join(root, 'build/native-release/sysgym'));
const [family] = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--sysgym');
const check = args.includes('--check');
const folder = path.join(here, family ?? '');
if (!family || !fs.existsSync(path.join(folder, 'manifest.json'))) {
  const families = fs.readdirSync(here).filter((f) => fs.existsSync(path.join(here, f, 'manifest.json')));
  console.error(`usage: node data/policies/retrain.mjs FAMILY [--check] [--sysgym PATH] (FAMILY: ${families.join(', ')})`);
  process.exit(2);
}
const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8'));
const run = (file, argv, cwd) => execFileSync(file, argv, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });

// What decides a policy's actions; the rest of a file (training times, defaults added to its
// agent's config since) may differ without changing one action.
const WEIGHTS = ['network', 'value_network', 'normalizer', 'per_bin', 'observation_layout', 'action_space'];
function sameWeights(file, shipped) {
  const [a, b] = [file, shipped].map((f) => JSON.parse(fs.readFileSync(f, 'utf8')));
  return WEIGHTS.filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

if (manifest.policies.some((p) => p.train_args)) {
  if (check) {
    console.error(`${family}'s reproduce.mjs retrains in place: run without --check, then git diff data/policies/${family}`);
    process.exit(2);
  }
  run(process.execPath, [path.join(folder, 'reproduce.mjs'), 'train', sysgym], root);
} else {
  const out = check ? fs.mkdtempSync(path.join(os.tmpdir(), `retrain-${family}-`)) : folder;
  let differing = 0;
  for (const p of manifest.policies) {
    const [program, ...rest] = p.train_command;
    if (program !== 'sysgym') throw new Error(`${p.file}: train_command must start with sysgym`);
    const output = rest.indexOf('-o') + 1;
    if (output === 0 || rest[output] !== p.file) throw new Error(`${p.file}: train_command must write it with -o ${p.file}`);
    // A policy with `seeds` is trained once per seed: the command with --seed N and its file's name
    // for that seed (seed_files.mjs), as the held-out protocol reads them.
    for (const { seed, file } of seedFiles(p)) {
      const command = p.seeds ? [...rest.slice(0, output), file, ...rest.slice(output + 1), '--seed', String(seed)] : rest;
      console.error(`${file}: sysgym ${command.join(' ')}`);
      // The command names shipped programs and kernels, not files: it runs the same from any folder.
      run(sysgym, command, out);
      if (!check) continue;
      const differ = sameWeights(path.join(out, file), path.join(folder, file));
      console.log(`${file}: ${differ.length === 0 ? 'the same weights as shipped' : `differs from the shipped file in ${differ.join(', ')}`}`);
      if (differ.length > 0) ++differing;
    }
  }
  if (check) fs.rmSync(out, { recursive: true, force: true });
  if (differing > 0) process.exit(1);
}

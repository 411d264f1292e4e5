// A shipped policy's files, one per training seed as its manifest entry lists them (`seeds`,
// default [0]): the first seed's file is `file` itself, the others FILE.seedN.json beside it
// (the rule `sysgym eval --split` follows).
export const seedFiles = (policy) => (policy.seeds ?? [0]).map((seed, i) => ({
  seed, file: i === 0 ? policy.file : policy.file.replace(/\.json$/, `.seed${seed}.json`),
}));

// Writes the native tool's `--help` texts, as docs/cli.md's reference holds them (the doc test
// keeps them equal to the tool's), into the npm package as native_help.json: {"": the tool's,
// "run": run's, "memtier estimate": ...}. The bin's flags and help come from them (cli_help.mjs).
// Usage: node wasm/native_help.mjs docs/cli.md PACKAGE_DIR/native_help.json
import fs from 'node:fs';

const [page, out] = process.argv.slice(2);
const text = fs.readFileSync(page, 'utf8');
const reference = text.split(/^<!-- cli-reference: generated.*-->\n/m)[1];
if (!reference) throw new Error(`${page} has no cli-reference section`);
const help = { '': /^```text\n([\s\S]*?)```/m.exec(reference)[1] };
for (const m of reference.matchAll(/^### sysgym (.+)\n\n```text\n([\s\S]*?)```/gm)) help[m[1]] = m[2];
fs.writeFileSync(out, `${JSON.stringify(help, null, 1)}\n`);

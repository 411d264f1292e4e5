// docs/cli.md's reference part, generated from the tool itself: every command and family tool
// that `sysgym --help` (and each family's `--help`) lists, with its own `--help` text, between
// the page's markers. The doc test checks the page is current; `./sysgym.sh catalogue` (or
// `node tests/docs/cli_reference.mjs --write`) rewrites it.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const page = path.join(root, 'docs/cli.md');
export const kBegin = '<!-- cli-reference: generated from every command\'s --help by `./sysgym.sh catalogue` -->\n';
export const kEnd = '<!-- cli-reference: end -->\n';

function help(tool, command) {
  return execFileSync(tool, [...command, '--help'], { encoding: 'utf8' });
}

// The [name, one line] rows of a help text's "Subcommands:" section (aliases excluded: they
// have a section of their own).
function subcommands(text) {
  const section = text.split(/^Subcommands:\n/m)[1];
  if (!section) return [];
  const rows = [];
  for (const line of section.split('\n')) {
    if (line.trim() === '') break;
    const m = /^ {2}(\S+)\s+(.*)$/.exec(line);
    if (m) rows.push([m[1], m[2]]);
  }
  return rows;
}

const anchor = (command) => `sysgym-${command.join('-')}`;

export function cliReference(tool) {
  const top = help(tool, []);
  const commands = [];
  for (const [name, line] of subcommands(top)) {
    const tools = subcommands(help(tool, [name]));
    if (tools.length === 0) commands.push([[name], line]);
    else for (const [sub, subLine] of tools) commands.push([[name, sub], subLine]);
  }
  const index = commands.map(([command, line]) => `| [\`sysgym ${command.join(' ')}\`](#${anchor(command)}) | ${line} |`);
  const sections = commands.map(([command]) => [
    `### sysgym ${command.join(' ')}`, '', '```text', help(tool, command).trimEnd(), '```', ''].join('\n'));
  return ['| command | what it does |', '|---|---|', ...index, '', '```text', top.trimEnd(), '```', '',
    ...sections].join('\n');
}

// The page with its reference part replaced by `reference`; throws when a marker is missing.
export function withReference(text, reference) {
  const from = text.indexOf(kBegin);
  const to = text.indexOf(kEnd);
  if (from < 0 || to < from) throw new Error(`docs/cli.md lacks the lines ${kBegin.trim()} ... ${kEnd.trim()}`);
  return text.slice(0, from + kBegin.length) + reference + text.slice(to);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!process.argv.includes('--write')) {
    console.error('usage: node tests/docs/cli_reference.mjs --write [TOOL]');
    process.exit(2);
  }
  const tool = process.argv.find((a, i) => i > 1 && a !== '--write') ?? path.join(root, 'build/native-release/sysgym');
  fs.writeFileSync(page, withReference(fs.readFileSync(page, 'utf8'), cliReference(tool)));
  console.log('catalogue: docs/cli.md from every command\'s --help');
}

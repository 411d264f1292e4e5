// The bin's command lines, parsed as the native tool (CLI11) parses them, from the native tool's
// own `--help` text: its positionals and options, their types, choices, REQUIRED, Needs and
// Excludes. A mistake gets the native tool's message word for word and exit 2.
import { usageError } from './errors.mjs';

// One line of a help section: the name part (flags, type, REQUIRED, Needs:, Excludes:). CLI11
// writes the description from column 30, or on the next line when the name part is longer.
function nameParts(section) {
  const lines = section.split('\n');
  const parts = [];
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    if (!/^ {2}\S/.test(line)) continue;
    const wrapped = i + 1 < lines.length && /^ {30}\S/.test(lines[i + 1]);
    parts.push((wrapped ? line : line.slice(0, 30)).trim());
  }
  return parts;
}

const TYPE = /^(TEXT|UINT|INT|NUMBER|FLOAT|BOOLEAN)(?::\{([^}]*)\}|:INT in \[[^\]]*\])?(?:=\S*)?/;

// A name part as {names, long, short, takesValue, type, choices, multiple, required, needs, excludes}.
function entry(part) {
  const [first, ...rest] = part.split(' ');
  const names = first.split(',');
  let text = rest.join(' ');
  const e = {
    names, long: names.find((n) => n.startsWith('--'))?.slice(2), short: names.find((n) => /^-\w$/.test(n))?.slice(1),
    positional: !first.startsWith('-'), takesValue: false, type: '', choices: null, multiple: false,
    required: false, needs: [], excludes: [],
  };
  const type = TYPE.exec(text);
  if (type) {
    e.takesValue = true;
    e.type = type[1];
    if (type[2] !== undefined) e.choices = type[2].split(',');
    text = text.slice(type[0].length).trim();
  }
  if (text.startsWith('...')) {
    e.multiple = true;
    text = text.slice(3).trim();
  }
  if (text.startsWith('REQUIRED')) {
    e.required = true;
    text = text.slice(8).trim();
  }
  const needs = /Needs: (.*?)(?= Excludes:|$)/.exec(text);
  if (needs) e.needs = needs[1].split(' ');
  const excludes = /Excludes: (.*)$/.exec(text);
  if (excludes) e.excludes = excludes[1].split(' ');
  return e;
}

const section = (help, title) => (help.split(new RegExp(`^${title}:\\n`, 'm'))[1] ?? '').split(/\n\n/)[0];

// The first word of each entry of a help text's section ("Subcommands": the command names).
export function sectionNames(help, title) {
  return nameParts(section(help, title)).map((part) => part.split(' ')[0]);
}

// A command's positionals and options from its native help text.
export function commandSpec(help) {
  return {
    positionals: nameParts(section(help, 'Positionals')).map(entry),
    options: nameParts(section(help, 'Options')).map(entry).filter((o) => o.long !== 'help'),
  };
}

// The name CLI11 gives an entry in its messages: --long for an option, the name of a positional.
const display = (e) => (e.positional ? e.names[0] : `--${e.long}`);
const looksLikeOption = (arg) => /^--?[A-Za-z]/.test(arg);

// Parses `args` by `spec`: {values: {long: string | true | string[]}, positionals: [string], help}.
// Values stay text (the core checks numbers and ranges, as the native flags do). Throws
// UsageError as CLI11 does: a missing value or choice while parsing, then REQUIRED, Needs and
// Excludes, then anything not expected. An option's `check` (set by the caller) runs first.
export function parseCommand(spec, args) {
  const byLong = new Map(spec.options.map((o) => [o.long, o]));
  const byShort = new Map(spec.options.filter((o) => o.short).map((o) => [o.short, o]));
  const values = {};
  const loose = [];
  const extras = [];
  let help = false;
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i];
    if (arg === '--') {
      loose.push(...args.slice(i + 1));
      break;
    }
    if (!looksLikeOption(arg)) {
      loose.push(arg);
      continue;
    }
    const long = arg.startsWith('--');
    const [name, inline] = long ? [arg.slice(2).split('=')[0], arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined]
      : [arg.slice(1, 2), arg.length > 2 ? arg.slice(2) : undefined];
    if (name === 'help' || (!long && name === 'h')) {
      help = true;
      continue;
    }
    const option = long ? byLong.get(name) : byShort.get(name);
    if (!option) {
      extras.push(arg);
      continue;
    }
    if (!option.takesValue) {
      values[option.long] = true;
      continue;
    }
    let value = inline;
    if (value === undefined) {
      if (i + 1 >= args.length || looksLikeOption(args[i + 1])) throw usageError(`--${option.long}: 1 required ${option.type} missing`);
      value = args[(i += 1)];
    }
    if (option.choices && !option.choices.includes(value)) throw usageError(`--${option.long}: ${value} not in {${option.choices.join(',')}}`);
    if (option.multiple) (values[option.long] ??= []).push(value);
    else values[option.long] = value;
  }
  if (help) return { values, positionals: [], help };
  // Values checked as they are read (CLI11's validators: the output flags), in the order given.
  for (const o of spec.options) if (o.check && values[o.long] !== undefined) o.check(values[o.long], `--${o.long}`);

  // Positionals in order, a multiple one taking the rest.
  const given = new Map();
  let next = 0;
  for (const p of spec.positionals) {
    if (next >= loose.length) break;
    const taken = p.multiple ? loose.slice(next) : [loose[next]];
    given.set(p.names[0], taken);
    next += taken.length;
  }
  extras.push(...loose.slice(next));

  const count = (e) => (e.positional ? (given.get(e.names[0])?.length ?? 0) : values[e.long] === undefined ? 0 : 1);
  const byName = new Map([...spec.positionals.map((p) => [p.names[0], p]), ...spec.options.map((o) => [`--${o.long}`, o])]);
  // CLI11 checks in declaration order, which help does not show: positionals before options,
  // but an option that excludes positionals (train's --resume) is declared before them.
  const excludesPositional = (o) => o.excludes.some((n) => !n.startsWith('-'));
  const order = [...spec.options.filter(excludesPositional), ...spec.positionals, ...spec.options.filter((o) => !excludesPositional(o))];
  for (const e of order) {
    if (e.required && count(e) === 0) throw usageError(`${display(e)} is required`);
    if (count(e) === 0) continue;
    for (const n of e.needs) if (count(byName.get(n)) === 0) throw usageError(`${display(e)} requires ${n}`);
    for (const n of e.excludes) if (count(byName.get(n)) > 0) throw usageError(`${display(e)} excludes ${n}`);
  }
  if (extras.length > 0) {
    throw usageError(`The following argument${extras.length > 1 ? 's were' : ' was'} not expected: ${extras.join(' ')}`);
  }
  return { values, positionals: spec.positionals.flatMap((p) => given.get(p.names[0]) ?? []), help };
}

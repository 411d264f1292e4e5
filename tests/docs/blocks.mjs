// The fenced blocks of a Markdown page and the doctest markers above them.
//
// A marker is an HTML comment on the lines right above a fence (blank lines between are allowed):
//   <!-- doctest: skip: WHY -->        not run; WHY is required and printed
//   <!-- doctest: same-as PATH -->     the block must equal the file PATH (from the repository
//                                      root) byte for byte; the file is what a test compiles
//   <!-- doctest: sub FROM => TO -->   run with the text FROM replaced by TO (every occurrence):
//                                      a long training run checked at a small size
//   <!-- doctest: timeout SECONDS -->  the block's time limit (default 120 s)
// Markers are rendered by no Markdown viewer, so the page reads as it would without them.

const fence = /^```([A-Za-z0-9_+-]*)\s*$/;
const marker = /^<!--\s*doctest:\s*(.*?)\s*-->\s*$/;

// Every fenced block: {language, code, line (1-based, of the opening fence), markers}.
// Throws on a fence left open or a marker that is not understood, naming the line.
export function fencedBlocks(text, file) {
  const lines = text.split('\n');
  const blocks = [];
  let pending = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const m = marker.exec(line);
    if (m) {
      pending.push(parseMarker(m[1], `${file}:${i + 1}`));
      continue;
    }
    const open = fence.exec(line);
    if (!open) {
      if (line.trim() !== '') pending = [];
      continue;
    }
    const start = i;
    const body = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i]); i++) body.push(lines[i]);
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: a fence is never closed`);
    blocks.push({ language: open[1], code: `${body.join('\n')}\n`, line: start + 1, markers: pending });
    pending = [];
  }
  if (pending.length > 0) throw new Error(`${file}: a doctest marker at its end is above no block`);
  return blocks;
}

function parseMarker(text, where) {
  let m;
  if ((m = /^skip:\s*(\S.*)$/.exec(text))) return { kind: 'skip', why: m[1] };
  if ((m = /^same-as\s+(\S+)$/.exec(text))) return { kind: 'same-as', path: m[1] };
  if ((m = /^sub\s+(.+?)\s+=>\s+(.*)$/.exec(text))) return { kind: 'sub', from: m[1], to: m[2] };
  if ((m = /^timeout\s+(\d+)$/.exec(text))) return { kind: 'timeout', seconds: Number(m[1]) };
  throw new Error(`${where}: doctest marker '${text}' is none of 'skip: WHY', 'same-as PATH', ` +
    "'sub FROM => TO', 'timeout SECONDS'");
}

// The code a block runs: its text with every `sub` marker applied, each required to match.
export function runnableCode(block, where) {
  let code = block.code;
  for (const sub of block.markers.filter((m) => m.kind === 'sub')) {
    if (!code.includes(sub.from)) throw new Error(`${where}: 'sub ${sub.from}' matches nothing in the block`);
    code = code.split(sub.from).join(sub.to);
  }
  return code;
}

// Relative links of a page, as [text](target) outside fenced blocks: {target, line}.
export function relativeLinks(text) {
  const links = [];
  let inFence = false;
  text.split('\n').forEach((line, i) => {
    if (/^```/.test(line)) inFence = !inFence;
    if (inFence) return;
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z]+:|^#/.test(m[1])) links.push({ target: m[1], line: i + 1 });
    }
  });
  return links;
}

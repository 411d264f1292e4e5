// The docs as HTML pages beside the playground: README.md becomes docs/index.html and every
// docs/PATH.md docs/PATH.html, rendered with marked at build time. Links between pages follow the
// pages (a .md link becomes its .html), links to other files of the repository become their text
// (the site has no source tree), and a page that embeds <sysgym-player> loads the site's player,
// which finds its worker and data next to itself. Writes docs/pages.json: every page, its title
// and its players, for the browser test.
import fs from 'node:fs';
import path from 'node:path';
import { Marked } from 'marked';

// The navigation, in the README's order: [heading, [source paths]].
const SECTIONS = [
  ['Environments', ['docs/envs/memtier.md', 'docs/envs/tensorplace.md', 'docs/envs/looptune.md', 'docs/envs/inline.md']],
  ['Using it', ['docs/cli.md', 'docs/api/cpp.md', 'docs/api/javascript.md', 'docs/api/python.md',
    'docs/playground.md', 'docs/profiling.md', 'docs/file-formats.md']],
  ['Trusting it', ['docs/hardening.md', 'docs/performance.md', 'docs/dependencies.md']],
  ['Changing it', ['docs/architecture.md', 'docs/adding-a-family.md']],
];

// Where a source page lands in the site: README.md -> docs/index.html, docs/X.md -> docs/X.html.
function sitePath(source) {
  if (source === 'README.md') return 'docs/index.html';
  return source.replace(/\.md$/, '.html');
}

function listPages(root) {
  const found = ['README.md'];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith('.md')) found.push(rel);
    }
  };
  walk('docs');
  const listed = new Set(['README.md', ...SECTIONS.flatMap(([, pages]) => pages)]);
  const unlisted = found.filter((p) => !listed.has(p));
  if (unlisted.length > 0) throw new Error(`docs site: pages not in its navigation (web/docs_site.mjs): ${unlisted.join(', ')}`);
  return found.sort();
}

// GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered.
function slugger() {
  const seen = new Map();
  return (text) => {
    const base = text.toLowerCase().replace(/<[^>]*>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}-${n}`;
  };
}

const escapeHtml = (text) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

function renderPage(root, source, titles) {
  const markdown = fs.readFileSync(path.join(root, source), 'utf8');
  const here = path.posix.dirname(sitePath(source));
  const up = path.posix.relative(here, '.') || '.';
  const slug = slugger();
  // A link's target in the site, or null when it is a file of the repository the site lacks.
  const target = (href) => {
    if (/^[a-z]+:|^#/i.test(href)) return href;
    const [file, anchor] = href.split('#');
    const repo = path.posix.normalize(path.posix.join(path.posix.dirname(source), file));
    let site = null;
    if (repo === 'README.md' || (repo.startsWith('docs/') && repo.endsWith('.md'))) site = sitePath(repo);
    else if (repo.startsWith('docs/images/')) site = repo;
    if (site === null) return null;
    return path.posix.relative(here, site) + (anchor ? `#${anchor}` : '');
  };
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading({ tokens, depth }) {
        const html = this.parser.parseInline(tokens);
        return `<h${depth} id="${slug(html)}">${html}</h${depth}>\n`;
      },
      link({ href, title, tokens }) {
        const text = this.parser.parseInline(tokens);
        const to = target(href);
        if (to === null) return `<span class="repo-path" title="${escapeHtml(href)} in the repository">${text}</span>`;
        return `<a href="${escapeHtml(to)}"${title ? ` title="${escapeHtml(title)}"` : ''}>${text}</a>`;
      },
      image({ href, text }) {
        return `<img src="${escapeHtml(target(href) ?? href)}" alt="${escapeHtml(text)}">`;
      },
    },
  });
  // Wide tables scroll inside the page instead of widening it (phones).
  const body = marked.parse(markdown).replace(/<table>/g, '<div class="table-scroll"><table>')
    .replace(/<\/table>/g, '</table></div>');
  const players = [...body.matchAll(/<sysgym-player\b[^>]*>/g)].length;
  const title = titles.get(source);
  const nav = [`<a href="${path.posix.relative(here, 'docs/index.html')}">sysgym</a>`,
    `<a href="${up}/index.html">Playground</a>`,
    ...SECTIONS.map(([heading, pages]) => `<h2>${heading}</h2><ul>${pages.map((p) => {
      const current = p === source ? ' aria-current="page"' : '';
      return `<li><a href="${path.posix.relative(here, sitePath(p))}"${current}>${escapeHtml(titles.get(p))}</a></li>`;
    }).join('')}</ul>`)].join('\n');
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · sysgym</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${up}/styles.css">
${players > 0 ? `  <script type="module" src="${up}/player.js"></script>\n` : ''}</head>
<body class="docs-site">
  <nav class="docs-nav" aria-label="Docs">
${nav}
  </nav>
  <main class="doc docs-page">
${body}  </main>
</body>
</html>
`;
  return { html, players };
}

// Short titles for the navigation: a page's first heading, up to its colon.
function pageTitle(root, source) {
  const heading = fs.readFileSync(path.join(root, source), 'utf8').match(/^# (.+)$/m)?.[1] ?? source;
  return heading.replace(/`/g, '').split(':')[0].trim();
}

export function buildDocsSite(root, out) {
  const pages = listPages(root);
  const titles = new Map(pages.map((p) => [p, pageTitle(root, p)]));
  const written = [];
  for (const source of pages) {
    const { html, players } = renderPage(root, source, titles);
    const file = path.join(out, sitePath(source));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, html);
    written.push({ source, page: sitePath(source), title: titles.get(source), players });
  }
  fs.cpSync(path.join(root, 'docs/images'), path.join(out, 'docs/images'), { recursive: true });
  fs.writeFileSync(path.join(out, 'docs/pages.json'), `${JSON.stringify(written, null, 2)}\n`);
  return written;
}

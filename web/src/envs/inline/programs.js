// inline's programs in the page: the shipped ones of the catalogue (fetched into the worker's data
// under the names the core looks for, inline/NAME.json, once), the compiled-in kernels, splits,
// and program files a visitor drops (`sysgym inline extract` output, added under its file name).
import { SchemaForm } from '../../shell/schema_form.js';
import { groups, option } from '../../shell/dom.js';

export const SPLITS = new Set(['train', 'held-out']);
const EMBEDDED = 'kernels'; // compiled into the core: no file to fetch
const held = new WeakMap(); // worker client -> names of the files it holds

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}

// Loads what `program` (a shipped name or a split) needs into the worker unless it holds it:
// the manifest and each program file. `base`: the catalogue's URL prefix (the player's folder).
export async function ensureProgram(client, catalogue, program, base = '') {
  const shipped = catalogue?.inline?.programs ?? [];
  const wanted = shipped.filter((p) => p.name !== EMBEDDED && (p.name === program || p.split === program));
  if (!wanted.length) return;
  const holding = held.get(client) ?? new Set();
  held.set(client, holding);
  const files = [{ name: 'inline/manifest.json', url: catalogue.inline.manifest },
    ...wanted.map((p) => ({ name: `inline/${p.name}.json`, url: p.file }))].filter((f) => !holding.has(f.name));
  if (!files.length) return;
  const named = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: await fetchBytes(`${base}${f.url}`) })));
  await client.request('data', { files: named }, null, named.map((f) => f.bytes.buffer));
  for (const f of files) holding.add(f.name);
}

// The program an episode played, for the model's requests: a split's episode names its draw.
export function playedProgram(meta) {
  const given = meta.config?.program ?? EMBEDDED;
  return SPLITS.has(given) ? meta.context?.program ?? given : given;
}

// The program picker (shipped programs by split, splits, dropped files) and the other keys as
// schema fields.
export class InlineForm {
  constructor({ data, fields }, schema, { client, catalogue }) {
    this.client = client;
    this.catalogue = catalogue;
    const label = Object.assign(document.createElement('label'), { htmlFor: 'inline-program', textContent: 'program' });
    this.select = Object.assign(document.createElement('select'), { id: 'inline-program', name: 'program' });
    this.about = Object.assign(document.createElement('p'), { className: 'muted', id: 'inline-program-about' });
    this.dropped = [];
    this.#fill();
    this.select.addEventListener('change', () => this.#describe());
    const field = Object.assign(document.createElement('div'), { className: 'field' });
    field.append(label, this.select);
    data.replaceChildren(field, this.about);
    this.fields = new SchemaForm(fields, schema, { keys: schema.map((k) => k.name).filter((k) => k !== 'program') });
    this.#describe();
  }

  #programs() {
    return this.catalogue?.inline?.programs ?? [{ name: EMBEDDED, split: 'train', origin: 'compiled into the core' }];
  }

  #fill() {
    const value = this.select.value || EMBEDDED;
    const bySplit = (split) => this.#programs().filter((p) => p.split === split).map((p) => option(p.name, p.name));
    this.select.replaceChildren(...groups(
      ['Held-out programs', bySplit('held-out')],
      ['Training programs', bySplit('train')],
      ['A program drawn per episode', [option('held-out', 'held-out (lmdb, lz4 or bzip2)')]],
      ['Dropped program files', this.dropped.map((name) => option(name, name))],
    ));
    this.select.value = [...this.select.options].some((o) => o.value === value) ? value : EMBEDDED;
  }

  #describe() {
    const p = this.#programs().find((x) => x.name === this.select.value);
    this.about.textContent = p ? `${p.origin}.` : SPLITS.has(this.select.value)
      ? 'Each episode draws one of the split\'s programs.' : 'A program file you dropped.';
  }

  validate() {
    return this.fields.validate();
  }

  // The config the form gives, its program not loaded (the status line, a caption).
  config() {
    return { program: this.select.value, ...this.fields.config() };
  }

  async prepare() {
    await ensureProgram(this.client, this.catalogue, this.select.value);
    return this.config();
  }

  dataLabel() {
    return this.select.value;
  }

  lockToPolicy(file) {
    this.fields.lockToPolicy(file);
  }

  fixedKeys(file) {
    return this.fields.fixedKeys(file);
  }

  toParams(params) {
    params.set('program', this.select.value);
    this.fields.toParams(params);
  }

  fromParams(params) {
    if (params.has('program') && [...this.select.options].some((o) => o.value === params.get('program'))) {
      this.select.value = params.get('program');
      this.#describe();
    }
    this.fields.fromParams(params);
  }

  // Program files (`sysgym inline extract -o`) go to the worker under their names and become
  // choices; the core checks them when an episode starts.
  async takeData(files, showError) {
    try {
      const named = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
      await this.client.request('data', { files: named }, null, named.map((f) => f.bytes.buffer));
      for (const f of named) if (!this.dropped.includes(f.name)) this.dropped.push(f.name);
      this.#fill();
      this.select.value = named[0].name;
      this.#describe();
      return `Added ${named.map((f) => f.name).join(', ')}: run an episode on it.`;
    } catch (e) {
      showError(e.message);
      return null;
    }
  }

  async prepareReplay(name, json) {
    const program = json.config?.program ?? EMBEDDED;
    await ensureProgram(this.client, this.catalogue, program);
    return program;
  }
}

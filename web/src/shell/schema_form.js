// An env's config fields, made from the config schema the core declares (name, type, range,
// choices, default, unit, doc): one input per key, a message per field when a value is out of
// the schema's range, the config they give, and the shareable URL's parameters. A family's view
// picks the keys, labels and initial values, and may add a check the schema cannot state.

// A schema key's text in a field: what the core's default becomes in an input.
function initialText(key) {
  if (key.default === null || key.default === undefined) return '';
  return typeof key.default === 'string' ? key.default : JSON.stringify(key.default);
}

function describeRange(key) {
  const unit = key.unit ? ` (${key.unit})` : '';
  if (key.type === 'integer') return `a whole number from ${key.min} to ${key.max}${unit}`;
  return `a number from ${key.min} to ${key.max}${unit}`;
}

// Why `raw` is not a value of `key`, or null. Empty text means the env's default.
function schemaProblem(key, raw) {
  if (raw.trim() === '') return key.required ? 'a value (this key has no default)' : null;
  if (key.type === 'integer' || key.type === 'number') {
    const v = Number(raw);
    const whole = key.type !== 'integer' || Number.isInteger(v);
    return Number.isFinite(v) && whole && v >= key.min && v <= key.max ? null : describeRange(key);
  }
  return null; // choices and booleans come from a select; strings and values are the core's to check
}

// The JSON value of a field's text for `key`, or undefined for the env's default.
function valueOf(key, raw) {
  const text = raw.trim();
  if (text === '') return undefined;
  switch (key.type) {
    case 'integer':
    case 'number':
      return Number(text);
    case 'boolean':
      return text === 'true';
    case 'value':
      try {
        return JSON.parse(text); // numbers and lists; "25%" is not JSON and stays text
      } catch {
        return text;
      }
    default:
      return text;
  }
}

function inputFor(key, id) {
  if (key.type === 'choice' || key.type === 'boolean') {
    const select = document.createElement('select');
    const choices = key.type === 'boolean' ? ['true', 'false'] : key.choices;
    const fallback = document.createElement('option');
    fallback.value = '';
    fallback.textContent = `default (${key.default_text ?? initialText(key)})`;
    select.append(fallback, ...choices.map((c) => Object.assign(document.createElement('option'), { value: c, textContent: c })));
    select.id = id;
    select.name = key.name;
    return select;
  }
  const input = document.createElement('input');
  input.id = id;
  input.name = key.name;
  input.spellcheck = false;
  if (key.type === 'integer' || key.type === 'number') {
    input.type = 'number';
    input.step = key.type === 'integer' ? '1' : 'any';
    input.min = String(key.min);
    input.max = String(key.max);
  }
  return input;
}

// Whether a policy file sets the key: it is part of the policy's contract and the file records it.
function setByPolicy(key, policyFile) {
  return (key.fixed_by_policy || key.policy_task) && policyFile?.env?.config?.[key.name] !== undefined;
}

export class SchemaForm {
  // `schema`: the env's keys; options: keys (which to show, in order; default: every key),
  // labels {key: text}, initial {key: text}, max {key: number} (a tighter upper bound and why:
  // {value, why}), checks {key: raw -> problem text or null} for what the schema cannot state.
  constructor(container, schema, { keys = schema.map((k) => k.name), labels = {}, initial = {}, max = {}, checks = {} } = {}) {
    this.keys = keys.map((name) => {
      const key = schema.find((k) => k.name === name);
      if (!key) throw new Error(`the env's config has no key "${name}"`);
      const cap = max[name];
      return cap && cap.value < key.max ? { ...key, max: cap.value, why: ` (${cap.why(key.max)})` } : key;
    });
    this.checks = checks;
    this.inputs = new Map();
    container.replaceChildren(...this.keys.map((key) => this.#field(key, labels[key.name], initial[key.name])));
  }

  #field(key, label, initial) {
    const div = document.createElement('div');
    div.className = 'field';
    const input = inputFor(key, key.name);
    input.value = initial ?? (key.type === 'choice' || key.type === 'boolean' ? '' : initialText(key));
    const error = Object.assign(document.createElement('p'), { className: 'field-error', id: `${key.name}-error` });
    error.setAttribute('role', 'alert');
    input.setAttribute('aria-describedby', error.id);
    input.title = key.doc;
    // An empty text field says what it takes (its doc's first clause; the title has all of it).
    if (input.tagName === 'INPUT' && input.type !== 'number' && key.doc) {
      const clause = key.doc.split(/[:;(]/)[0].trim();
      input.placeholder = clause.length <= 48 ? clause : `${clause.slice(0, clause.lastIndexOf(' ', 46))}…`;
    }
    const text = Object.assign(document.createElement('label'), { htmlFor: input.id, textContent: label ?? key.name.replaceAll('_', ' ') });
    div.append(text, input, error);
    this.inputs.set(key.name, input);
    return div;
  }

  // Shows each field's problem next to it; true when all are fine.
  validate() {
    let ok = true;
    for (const key of this.keys) {
      const input = this.inputs.get(key.name);
      const raw = input.value;
      let problem = null;
      if (!input.disabled) {
        problem = this.checks[key.name]?.(raw) ?? schemaProblem(key, raw);
        if (problem && key.why && !this.checks[key.name]) problem += key.why;
      }
      input.setCustomValidity(problem ?? '');
      input.setAttribute('aria-invalid', problem ? 'true' : 'false');
      document.getElementById(`${key.name}-error`).textContent = problem ? `Expected ${problem}.` : '';
      ok &&= !problem;
    }
    return ok;
  }

  // The config the fields give (keys left empty take the env's default).
  config() {
    const out = {};
    for (const key of this.keys) {
      const value = valueOf(key, this.inputs.get(key.name).value);
      if (value !== undefined) out[key.name] = value;
    }
    return out;
  }

  // The keys a policy file sets in this form: those its network depends on and those that say
  // what it was trained to achieve, that it records.
  fixedKeys(policyFile) {
    return this.keys.filter((key) => setByPolicy(key, policyFile)).map((key) => key.name);
  }

  // While a learned policy is chosen, the keys its file fixes show its values and are locked.
  lockToPolicy(policyFile) {
    for (const key of this.keys) {
      const input = this.inputs.get(key.name);
      const fixed = setByPolicy(key, policyFile);
      if (fixed) {
        input.dataset.userValue ??= input.value;
        input.value = String(policyFile.env.config[key.name]);
        input.disabled = true;
      } else if (input.disabled) {
        input.value = input.dataset.userValue ?? input.value;
        delete input.dataset.userValue;
        input.disabled = false;
      }
    }
  }

  // The fields in a shared link (locked ones come from the policy and are left out).
  toParams(params) {
    for (const [name, input] of this.inputs) {
      if (!input.disabled && input.value !== '') params.set(name, input.value);
    }
  }

  fromParams(params) {
    for (const [name, input] of this.inputs) {
      if (params.has(name)) input.value = params.get(name);
    }
  }
}

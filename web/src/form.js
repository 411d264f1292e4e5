// The episode form: validation with a message per field, the env config it describes, and the
// shareable URL (trace, policy, config and seed in the fragment).
const CAPACITY = /^\s*\d+(\.\d+)?\s*(%|B|KB|MB|GB|KiB|MiB|GiB)?\s*$/i;
const FIELDS = ['hbm_capacity', 'bins', 'migration_gbps', 'window_mode', 'seed'];
// The heatmap draws one row per bin: above this many the chart would not be readable or fast,
// whatever the env accepts.
const DRAWABLE_BINS = 4096;
// The env's own limits, from its config schema (setSchema); these hold until it arrives.
const limits = { bins: { min: 1, max: DRAWABLE_BINS } };

// Takes the form's limits from the env's config schema (core declares them once).
export function setSchema(form, schema) {
  const bins = schema.find((k) => k.name === 'bins');
  if (!bins) return;
  limits.bins = { min: bins.min, max: Math.min(bins.max, DRAWABLE_BINS), envMax: bins.max };
  form.elements.bins.min = String(limits.bins.min);
  form.elements.bins.max = String(limits.bins.max);
}

function checkField(name, raw) {
  switch (name) {
    case 'hbm_capacity':
      return CAPACITY.test(raw) ? null : 'a size such as 10%, 64MiB or 2097152 (bytes)';
    case 'bins': {
      const n = Number(raw);
      const { min, max, envMax } = limits.bins;
      const why = envMax > max ? ` (the env takes up to ${envMax}; the heatmap draws ${max} rows at most)` : '';
      return Number.isInteger(n) && n >= min && n <= max ? null : `a whole number of bins from ${min} to ${max}${why}`;
    }
    case 'migration_gbps': {
      const v = Number(raw);
      return raw.trim() !== '' && Number.isFinite(v) && v > 0 ? null : 'a bandwidth above 0 GB/s';
    }
    case 'seed': {
      const n = Number(raw);
      return Number.isInteger(n) && n >= 0 && n <= Number.MAX_SAFE_INTEGER ? null : 'a whole number from 0';
    }
    default:
      return null;
  }
}

// Shows each field's problem next to it; returns true when all are fine.
export function validate(form) {
  let ok = true;
  for (const name of FIELDS) {
    const input = form.elements[name];
    const problem = input.disabled ? null : checkField(name, input.value);
    input.setCustomValidity(problem ?? '');
    input.setAttribute('aria-invalid', problem ? 'true' : 'false');
    const message = form.querySelector(`#${name}-error`);
    if (message) message.textContent = problem ? `Expected ${problem}.` : '';
    ok &&= !problem;
  }
  return ok;
}

// The env config for `trace` from the form (the worker adds what a learned policy's file fixes).
export function envConfig(form, trace) {
  const f = form.elements;
  const capacity = f.hbm_capacity.value.trim();
  const config = {
    trace,
    hbm_capacity: /^\d+$/.test(capacity) ? Number(capacity) : capacity,
    bins: Number(f.bins.value),
    migration_gbps: Number(f.migration_gbps.value),
  };
  if (f.window_mode.value) config.window_mode = f.window_mode.value;
  return config;
}

// While a learned policy is chosen, the fields it fixes show its values and are locked.
export function lockToPolicy(form, policyFile) {
  const bins = form.elements.bins;
  if (policyFile) {
    bins.dataset.userValue ??= bins.value;
    bins.value = policyFile.env.config.bins;
    bins.disabled = true;
  } else if (bins.disabled) {
    bins.value = bins.dataset.userValue ?? bins.value;
    delete bins.dataset.userValue;
    bins.disabled = false;
  }
}

export function seedOf(form) {
  return Number(form.elements.seed.value);
}

// The URL fragment for the form's state: #trace=...&policy=...&hbm_capacity=...
export function stateToHash(form, { trace, policy }) {
  const params = new URLSearchParams({ trace, policy });
  for (const name of FIELDS) {
    const input = form.elements[name];
    if (!input.disabled && input.value !== '') params.set(name, input.value);
  }
  return `#${params}`;
}

// Fills the form from a fragment; returns {trace, policy} (either may be null).
export function hashToState(form, hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  for (const name of FIELDS) {
    if (params.has(name)) form.elements[name].value = params.get(name);
  }
  return { trace: params.get('trace'), policy: params.get('policy') };
}

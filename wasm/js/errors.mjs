// The package's Error classes and the glue that turns the core's failure returns into them.
export class SysgymError extends Error {
  constructor(message) {
    super(message);
    this.name = new.target.name;
  }
}
export class ConfigError extends SysgymError {}
export class TraceFormatError extends SysgymError {}
export class UnknownNameError extends SysgymError {}
export class ApiMisuseError extends SysgymError {}
export class InvalidActionError extends SysgymError {}
export class IoError extends SysgymError {}
export class EnvCheckError extends SysgymError {}
// The bin's command line did not parse: `text` goes to stderr and the exit status is 2, as
// natively (thrown, so that `sysgym profile` can run a command line and still end cleanly).
// A missing or wrong argument, said as the native tool (CLI11) says it: exit 2.
export function usageError(message) {
  return new UsageError(`${message}\nRun with --help for more information.\n`);
}

export class UsageError extends Error {
  constructor(text) {
    super(text);
    this.text = text;
  }
}
const ERROR_CLASSES = { ConfigError, TraceFormatError, UnknownNameError, ApiMisuseError, InvalidActionError, IoError, EnvCheckError };

export function lastError(core) {
  const Kind = ERROR_CLASSES[core.lastErrorKind()] ?? SysgymError;
  return new Kind(core.lastErrorMessage());
}

// User text inside a message, as the core quotes it (base/quote.hpp): printable ASCII, \xNN for
// every other byte of its UTF-8, at most 160 characters, in single quotes.
export function quote(value, maxChars = 160) {
  return `'${printable(value, maxChars)}'`;
}

// quote() without the quotes.
export function printable(value, maxChars = 160) {
  const utf8 = new TextEncoder().encode(String(value));
  let out = '';
  const kept = Math.min(utf8.length, maxChars);
  for (let i = 0; i < kept; i += 1) {
    const c = utf8[i];
    if (c >= 0x20 && c < 0x7f) out += String.fromCharCode(c);
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else out += `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return `${out}${kept < utf8.length ? '...' : ''}`;
}

// Arguments reach C++ through Embind, which answers a wrong type with an unnamed BindingError:
// they are checked here and named instead.
export function text(value, what) {
  if (typeof value !== 'string') throw new ApiMisuseError(`${what} must be a string, got ${describe(value)}`);
  return value;
}

export function strings(value, what) {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
    throw new ApiMisuseError(`${what} must be an array of strings, got ${describe(value)}`);
  }
  return value;
}

export function flag(value, what) {
  if (typeof value !== 'boolean') throw new ApiMisuseError(`${what} must be true or false, got ${describe(value)}`);
  return value;
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${quote(value, 40)}`;
  if (typeof value === 'number' || typeof value === 'bigint') return `${typeof value} ${String(value)}`;
  return typeof value;
}

// A seed as the decimal text the core parses, with the native tool's rules and message: any
// integer from 0 to 2^64 - 1, as a number (up to 2^53 - 1, beyond which numbers are not exact
// integers), a BigInt or a decimal string. -1, 2^64, 1.5, NaN and "abc" are errors, never 0.
export function seedText(core, value, name = 'seed') {
  let t;
  if (typeof value === 'bigint' || typeof value === 'string') t = String(value);
  else if (typeof value === 'number') {
    if (Number.isInteger(value) && value > Number.MAX_SAFE_INTEGER) {
      throw new ConfigError(`${name}: ${value} is not an exact integer in a JS number (above 2^53 - 1); give a BigInt or a decimal string`);
    }
    t = String(value);
  } else throw new ApiMisuseError(`${name} must be an integer, a BigInt or a decimal string, got ${describe(value)}`);
  const canonical = core.checkSeedText(t, name);
  if (canonical === '') throw lastError(core);
  return canonical;
}

export function check(core, ok) {
  if (!ok) throw lastError(core);
}

export function parsed(core, text) {
  if (text === '') throw lastError(core);
  return JSON.parse(text);
}

export function bytes(data, what) {
  if (typeof data === 'string' || data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw new TypeError(`${what} must be a string, an ArrayBuffer or a Uint8Array`);
}

// Handles not disposed by hand are freed when their JS object is collected.
export const finalizer = new FinalizationRegistry((handle) => {
  try {
    handle.delete();
  } catch {
    // already deleted
  }
});


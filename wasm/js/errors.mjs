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
const ERROR_CLASSES = { ConfigError, TraceFormatError, UnknownNameError, ApiMisuseError, InvalidActionError, IoError };

export function lastError(core) {
  const Kind = ERROR_CLASSES[core.lastErrorKind()] ?? SysgymError;
  return new Kind(core.lastErrorMessage());
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


// Paths for the node tests: the assembled package and the native tool (for parity).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const packageDir = process.env.SYSGYM_PACKAGE ?? path.join(root, 'build/wasm/package');
export const nativeTool = process.env.SYSGYM_NATIVE ?? path.join(root, 'build/native-release/sysgym');
export const dataDir = path.join(root, 'data');
export const {
  load, ConfigError, TraceFormatError, UnknownNameError, ApiMisuseError, InvalidActionError, SysgymError, EnvCheckError,
} =
  await import(path.join(packageDir, 'index.mjs'));

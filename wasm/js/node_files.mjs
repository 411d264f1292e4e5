// Files for the package under Node, read as the native tool reads them: a name is a path, and
// the traces shipped in the package (data/real, data/synth) answer to their bare names (`xz`). The
// core resolves every name itself over these callbacks (has, list, read), behind what
// `sysgym.data.add` holds; in a browser there are none.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { IoError, printable, quote } from './errors.mjs';

// The files read so far (device and inode): the bin never writes an output over one of them.
export const inputs = new Set();

// Reads a whole input file. Anything but a regular file (a FIFO, /dev/zero, a directory) is refused
// from its type, before opening: reading those would block or never end.
export function readInput(file) {
  let info;
  try {
    info = fs.statSync(file);
  } catch (e) {
    throw new IoError(`cannot open ${quote(file)}: ${e.code === 'ENOENT' ? 'No such file or directory' : printable(e.message)}`);
  }
  if (!info.isFile()) throw new IoError(`${quote(file)} is not a regular file${info.isDirectory() ? ' (it is a directory)' : ''}`);
  inputs.add(`${info.dev}:${info.ino}`);
  try {
    return fs.readFileSync(file);
  } catch (e) {
    throw new IoError(`cannot read ${quote(file)}: ${printable(e.message)}`);
  }
}

// The callbacks the core's host DataSource calls (wasm/runtime.cpp): they never throw.
export function hostFiles() {
  const data = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data');
  return {
    shippedPrefix: fs.existsSync(path.join(data, 'real')) ? `${data}/` : '',
    has(name) {
      try {
        return name !== '' && fs.statSync(name).isFile();
      } catch {
        return false;
      }
    },
    // The files in the prefix's folder whose names begin with its last part, written with the
    // prefix's own folder text, sorted (as native/data_files.cpp lists them).
    list(prefix) {
      const stem = prefix.slice(prefix.lastIndexOf('/') + 1);
      const folder = prefix.slice(0, prefix.length - stem.length);
      try {
        return fs.readdirSync(folder === '' ? '.' : folder)
          .filter((file) => file.startsWith(stem) && this.has(folder + file))
          .map((file) => folder + file)
          .sort();
      } catch {
        return [];
      }
    },
    read(name) {
      try {
        return { bytes: readInput(name) };
      } catch (e) {
        return { error: e.message };
      }
    },
  };
}

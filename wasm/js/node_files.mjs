// Files for the package under Node, read and written as the native tool does: a name is a path,
// and the traces shipped in the package (data/real, data/synth) answer to their bare names (`xz`).
// The core resolves every name itself over these callbacks (has, list, read, missing), behind what
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

// How `file` may be written, as natively: 'replace' (a new or regular file, by a temporary file
// renamed into place) or 'in place' (a character device or FIFO); anything else is an IoError.
function destination(file) {
  let info = null;
  try {
    info = fs.statSync(file);
  } catch (e) {
    if (e.code !== 'ENOENT') throw new IoError(`cannot write ${quote(file)}: ${printable(e.message)}`);
    return 'replace';
  }
  if (info.isFile() && inputs.has(`${info.dev}:${info.ino}`)) {
    throw new IoError(`refusing to write ${quote(file)}: it is one of this command's inputs (choose another output path)`);
  }
  if (info.isCharacterDevice() || info.isFIFO()) return 'in place';
  if (!info.isFile()) {
    const kind = info.isDirectory() ? 'a directory' : info.isSocket() ? 'a socket' : info.isBlockDevice() ? 'a block device' : 'not a regular file';
    throw new IoError(`cannot write ${quote(file)}: it is ${kind} (outputs are regular files, a character device such as /dev/null, or a FIFO)`);
  }
  return 'replace';
}

// The IoError writing `file` would end in, thrown before the work (native/files.hpp's
// check_output_path, word for word): its folder missing or not writable, or destination's.
export function checkOutputPath(file) {
  if (file === '') throw new IoError('cannot write \'\': the path is empty');
  if (destination(file) === 'in place') return;
  const slash = file.lastIndexOf('/');
  const folder = slash < 0 ? '.' : slash === 0 ? '/' : file.slice(0, slash);
  let isFolder = false;
  try {
    isFolder = fs.statSync(folder).isDirectory();
  } catch {
    // missing: said below
  }
  if (!isFolder) throw new IoError(`cannot write ${quote(file)}: its folder ${quote(folder)} does not exist`);
  try {
    fs.accessSync(folder, fs.constants.W_OK | fs.constants.X_OK);
  } catch {
    throw new IoError(`cannot write ${quote(file)}: its folder ${quote(folder)} is not writable`);
  }
}

// Writes an output as the native tool does: to a temporary file next to it, renamed into place,
// so a full disk or a kill leaves the previous file whole; a character device or FIFO is written
// in place; an input of this command, a directory or a socket is refused.
export function writeAtomically(file, content) {
  if (destination(file) === 'in place') {
    fs.writeFileSync(file, content);
    return;
  }
  const temporary = path.join(path.dirname(file), `${path.basename(file)}.tmp-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  try {
    fs.writeFileSync(temporary, content, { mode: 0o644 });
    fs.renameSync(temporary, file);
  } catch (e) {
    fs.rmSync(temporary, { force: true });
    throw new IoError(`cannot write ${quote(file)}: ${printable(e.message)}`);
  }
}

// A JSON option as natively: inline JSON text ("{...}", "[...]") or the path of a JSON file; the
// core parses it (with the native tool's messages).
export function jsonText(text) {
  if (text === undefined) return '';
  const trimmed = text.trimStart();
  return trimmed.startsWith('{') || trimmed.startsWith('[') ? text : readInput(text).toString('utf8');
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
    // Why `name` is not data, as native/data_files.cpp says it.
    missing(name) {
      try {
        const info = fs.statSync(name);
        if (!info.isFile()) return `${quote(name)} is not a regular file${info.isDirectory() ? ' (it is a directory)' : ''}`;
      } catch {
        // not there at all
      }
      return `no file ${quote(name)}`;
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

// A step's info: a plain object with the env's keys, read from its result view.
//
// The reader is compiled once per env from the keys, so every step builds one object literal of
// a fixed shape; inserting fourteen named properties one by one was a quarter of a memtier step's
// time in JS. The keys come from the core (C++ identifiers) and are quoted with JSON.stringify.
// Embind's glue compiles its invokers the same way, so this needs no more of a page's
// Content-Security-Policy than the module does already.
export function infoReader(keys, offset) {
  const fields = keys.map((key, i) => `${JSON.stringify(key)}: r[${offset + i}]`).join(', ');
  return new Function('r', `return { ${fields} };`);
}

// How figures are shown: the same digits everywhere (the browser tests format native figures
// with these functions and compare the text).
export function formatMs(ms) {
  return `${ms.toFixed(3)} ms`;
}

export function formatPercent(fraction) {
  return `${(fraction * 100).toFixed(2)} %`;
}

export function formatBytes(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    ++unit;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

// Sets an element's text and keeps the exact value in data-value (for tests and copy/paste).
export function showFigure(el, value, format) {
  el.textContent = format(value);
  el.dataset.value = String(value);
}

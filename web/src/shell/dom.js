// Small DOM builders the page and the views share.
export function option(value, label) {
  return Object.assign(document.createElement('option'), { value, textContent: label });
}

export function group(label, options) {
  const g = Object.assign(document.createElement('optgroup'), { label });
  g.append(...options);
  return g;
}

// A select's option groups from [label, options] pairs, the empty ones left out (a menu shows no
// heading without choices under it).
export function groups(...pairs) {
  return pairs.filter(([, options]) => options.length > 0).map(([label, options]) => group(label, options));
}

// A titled panel holding one chart, appended to `container`: returns the chart's element.
// `size`: '' (one grid cell) or 'wide'; `height`: 'chart' or 'chart tall'. Until the chart draws,
// the panel says when it will (a first visitor otherwise meets a page of empty boxes).
export function chartPanel(container, { id, title, size = '', height = 'chart' }) {
  const section = Object.assign(document.createElement('section'), { className: `panel ${size}`.trim() });
  section.setAttribute('aria-labelledby', `${id}-title`);
  const el = Object.assign(document.createElement('div'), { id, className: height });
  el.dataset.empty = 'Drawn when an episode runs.';
  section.append(Object.assign(document.createElement('h2'), { id: `${id}-title`, textContent: title }), el);
  container.append(section);
  return el;
}

// An ECharts instance on `el` (canvas) that follows the element's size, and the options every
// chart starts from. The console and the browser tests reach the instance as el.chartInstance; a
// chart whose layout depends on its width sets el.onChartResize, called after each resize. The
// element's data-empty note (styles.css) goes while the chart draws and comes back when cleared.
export function chart(echarts, el) {
  const c = echarts.init(el, null, { renderer: 'canvas' });
  el.chartInstance = c;
  const note = el.dataset.empty;
  const [draw, clear] = [c.setOption.bind(c), c.clear.bind(c)];
  c.setOption = (...args) => {
    delete el.dataset.empty;
    return draw(...args);
  };
  c.clear = () => {
    if (note) el.dataset.empty = note;
    clear();
  };
  // Not while the element is out of the page or folded to nothing (a removed player, a hidden
  // panel): a graph series that can be panned has no view transform at size 0, and ECharts throws.
  new ResizeObserver(() => {
    if (!el.isConnected || el.clientWidth === 0 || el.clientHeight === 0) return;
    c.resize();
    el.onChartResize?.();
  }).observe(el);
  return c;
}
export const CHART_BASE = { animation: false, aria: { enabled: true }, textStyle: { fontFamily: 'inherit' } };

// The heatmap draws what the episode holds: every cell in green exactly where the episode's
// resident map puts at least half of the bin in HBM over the cell's windows, and in grey (or
// blank) elsewhere, read back from the canvas's pixels after a run and after stepping with the
// arrow keys (where shading once went missing, around windows 720-780).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { screenshot, sharedPlayground, waitForEnd } from './browser.mjs';

const shared = sharedPlayground();

// In the page: each cell's colour class, read from the canvas layers (ECharts draws series on
// several; the topmost opaque pixel is what a visitor sees), against the resident map and
// samples of the episode shown: green exactly where at least half the bin was in HBM over the
// cell's windows; grey (data in DDR) or blank elsewhere.
function compareCells() {
  const el = document.querySelector('#heatmap');
  const chart = el.chartInstance;
  const { run, cursor } = window.sysgymPlayground;
  const group = Number(el.dataset.columnGroup);
  const layers = [...el.querySelectorAll('canvas')].reverse().map((c) => ({ ctx: c.getContext('2d'), ratio: c.width / c.clientWidth }));
  const seenAt = (x, y) => {
    for (const { ctx, ratio } of layers) {
      const [r, g, b, a] = ctx.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data;
      if (a < 128) continue;
      if (g - Math.max(r, b) > 25) return ['hbm', [r, g, b]];
      if (Math.max(r, g, b) - Math.min(r, g, b) < 25) return ['ddr', [r, g, b]];
      return ['other', [r, g, b]];
    }
    return ['blank', []];
  };
  const result = { cells: 0, hbm: 0, ddr: 0, wrong: [] };
  const lastColumn = Math.floor(cursor / group);
  for (let column = 0; column < lastColumn; ++column) { // the cursor's column carries the window line
    for (let bin = 0; bin < run.meta.context.bins.length; ++bin) {
      let share = 0;
      let samples = 0;
      for (let w = column * group; w < (column + 1) * group; ++w) {
        share += run.frames[w].frame.resident[bin];
        samples += run.frames[w].frame.histogram[bin];
      }
      const expected = share / group >= 0.5 ? 'hbm' : samples > 0 ? 'ddr' : 'blank';
      const [x, y] = chart.convertToPixel({ seriesIndex: 0 }, [column, bin]);
      const [seen, pixel] = seenAt(x, y);
      result.cells += 1;
      if (expected !== 'blank') result[expected] += 1;
      // Columns are a few pixels wide: a blank cell may show its neighbour's grey at its centre,
      // but green is never borrowed, nor lost.
      const sameShading = (seen === 'hbm') === (expected === 'hbm') && seen !== 'other';
      if (!sameShading) result.wrong.push({ column, bin, expected, seen, pixel });
    }
  }
  return result;
}

function assertCells(result, when) {
  assert.ok(result.cells > 1000, `${when}: ${result.cells} cells checked`);
  assert.ok(result.hbm > 50, `${when}: ${result.hbm} cells in HBM (the policy keeps data there)`);
  assert.ok(result.ddr > 50, `${when}: ${result.ddr} cells with samples in DDR`);
  assert.deepEqual(result.wrong.slice(0, 5), [], `${when}: ${result.wrong.length} of ${result.cells} cells drawn unlike the resident map`);
}

test('after a run and after stepping back with the arrow keys, green cells are exactly the resident ones', async () => {
  const page = shared.page;
  await page.selectOption('#trace', 'hpcc-randomaccess');
  await page.selectOption('#policy', 'builtin:lfu-hemem');
  await page.fill('#hbm_capacity', '10%');
  await page.selectOption('#speed', 'Infinity');
  await page.click('#run');
  await waitForEnd(page);
  await page.waitForTimeout(300);
  const atEnd = await page.evaluate(compareCells);
  await screenshot(page, 'heatmap-end');
  assertCells(atEnd, 'at the end');

  await page.fill('#jump-to', '790');
  await page.dispatchEvent('#jump-to', 'change');
  await page.locator('#window-counter').click(); // focus off the inputs, so the keys step
  for (let i = 0; i < 60; ++i) await page.keyboard.press('ArrowLeft');
  assert.equal(await page.locator('#window-counter').getAttribute('data-shown'), '731');
  await page.waitForTimeout(300);
  const stepped = await page.evaluate(compareCells);
  await screenshot(page, 'heatmap-stepped');
  assertCells(stepped, 'at window 730 after stepping');
});

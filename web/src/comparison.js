// The comparison table: every policy on one trace and config, filled row by row as the worker
// finishes each episode, sorted by total time (lower is better).
import { formatBytes, formatMs, formatPercent, showFigure } from './format.js';

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text;
  row.append(td);
  return td;
}

function rowOf({ label, oracle, summary, error }, current) {
  const tr = document.createElement('tr');
  const th = document.createElement('th');
  th.scope = 'row';
  th.textContent = label;
  if (oracle) {
    const tag = document.createElement('span');
    tag.className = 'tag';
    tag.textContent = 'oracle: reads the future';
    th.append(' ', tag);
  }
  tr.append(th);
  tr.dataset.policy = label;
  if (label === current) tr.classList.add('current');
  if (error) {
    const td = cell(tr, error);
    td.colSpan = 4;
    td.className = 'error';
    return tr;
  }
  showFigure(cell(tr, ''), summary.total_ms, formatMs);
  showFigure(cell(tr, ''), summary.migration_ms, formatMs);
  showFigure(cell(tr, ''), summary.gap_closed, formatPercent);
  cell(tr, formatBytes(summary.promoted_bytes + summary.demoted_bytes));
  tr.dataset.total = String(summary.total_ms);
  return tr;
}

export async function fillComparison(table, client, args, current, showError) {
  const body = table.tBodies[0];
  const rows = [];
  body.replaceChildren();
  table.caption.textContent = `Running ${args.policies.length} policies…`;
  table.setAttribute('aria-busy', 'true');
  try {
    await client.request('compare', { args }, (event) => {
      rows.push(event.row);
      rows.sort((a, b) => (a.summary?.total_ms ?? Infinity) - (b.summary?.total_ms ?? Infinity));
      body.replaceChildren(...rows.map((r) => rowOf(r, current)));
      table.caption.textContent = `${rows.length} of ${args.policies.length} policies (lower total is better).`;
    });
    table.caption.textContent = `${rows.length} policies on ${args.config.trace}, HBM ${args.config.hbm_capacity} (lower total is better).`;
  } catch (e) {
    showError(`compare: ${e.message}`);
  } finally {
    table.setAttribute('aria-busy', 'false');
  }
}

// The comparison table: every policy on one env and config, filled row by row as the worker
// finishes each episode. The columns and the order are the env's own (its report columns and
// ranking, as `sysgym compare` uses them); the view only names and formats summary keys.
import { showFigure } from './format.js';

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text;
  row.append(td);
  return td;
}

function rowOf(row, current, columns, view, onSelect) {
  const { label, oracle, summary, error } = row;
  const tr = document.createElement('tr');
  if (!error) {
    tr.tabIndex = 0;
    tr.classList.add('selectable');
    tr.title = `Play ${label}`;
    tr.addEventListener('click', () => onSelect(row));
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') onSelect(row);
    });
  }
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
    td.colSpan = Math.max(1, columns.length);
    td.className = 'error';
    return tr;
  }
  for (const key of columns) {
    const td = cell(tr, '');
    td.dataset.key = key;
    showFigure(td, summary[key], view.format(key));
  }
  return tr;
}

function header(table, columns, view) {
  const tr = document.createElement('tr');
  for (const label of ['Policy', ...columns.map((key) => view.label(key))]) {
    tr.append(Object.assign(document.createElement('th'), { scope: 'col', textContent: label }));
  }
  table.tHead.replaceChildren(tr);
}

// Fills `table` (and `charts`, comparison_charts.js) with every policy of `args` as each finishes;
// choosing a row calls `onSelect(row)`.
export async function fillComparison(table, client, args, { current, view, caption, charts, onSelect }, showError) {
  const body = table.tBodies[0];
  const rows = [];
  let columns = [];
  let rank = null;
  // An env without a ranking key ranks by the return, which a summary does not hold: run order.
  const score = (r) => (!r.summary ? Infinity : rank.key ? r.summary[rank.key] * (rank.higherIsBetter ? -1 : 1) : 0);
  const better = () => (rank.key ? `${rank.higherIsBetter ? 'higher' : 'lower'} ${view.label(rank.key).toLowerCase()} is better` : 'in the order run');
  body.replaceChildren();
  table.caption.textContent = `Running ${args.policies.length} policies…`;
  table.setAttribute('aria-busy', 'true');
  try {
    await client.request('compare', { args }, (event) => {
      if (event.kind === 'comparing') {
        ({ ranking: rank, reportColumns: columns } = event.comparing);
        return;
      }
      rows.push(event.row);
      if (columns.length === 0 && event.row.summary) columns = Object.keys(event.row.summary);
      rows.sort((a, b) => score(a) - score(b));
      header(table, columns, view);
      body.replaceChildren(...rows.map((r) => rowOf(r, current, columns, view, onSelect)));
      charts?.update(rows, { key: rank.key, higherIsBetter: rank.higherIsBetter, current, view, stepName: view.stepName });
      for (const [i, r] of rows.entries()) if (r.summary && rank.key) body.rows[i].dataset.rank = String(r.summary[rank.key]);
      table.caption.textContent = `${rows.length} of ${args.policies.length} policies (${better()}).`;
    });
    table.caption.textContent = `${rows.length} policies on ${caption} (${better()}).`;
  } catch (e) {
    showError(`compare: ${e.message}`);
  } finally {
    table.setAttribute('aria-busy', 'false');
  }
}

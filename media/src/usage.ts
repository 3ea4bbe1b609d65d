// The usage page (ACP: Show Usage): a table the extension sends, sortable by any column (click or
// Enter on its header; aria-sort says how), a grouping (session, agent, day) and Export CSV…, and
// below it the agents' rate limits when any reported one. Every text goes in with textContent; the
// page keeps its sort across updates.
import type { FromUsagePage, ToUsagePage, UsageTable } from '../../src/ui/usage/usageMessages';

declare function acquireVsCodeApi(): { postMessage(msg: FromUsagePage): void };
const api = acquireVsCodeApi();

let table: UsageTable | undefined;
let sortBy = -1;
let ascending = false;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  return e;
}

function header(t: UsageTable): HTMLTableSectionElement {
  const head = el('thead');
  const tr = head.appendChild(el('tr'));
  t.columns.forEach((c, i) => {
    const th = tr.appendChild(el('th', c.label));
    th.tabIndex = 0;
    th.className = c.numeric ? 'num' : '';
    th.setAttribute('aria-sort', i === sortBy ? (ascending ? 'ascending' : 'descending') : 'none');
    const sort = (): void => {
      ascending = sortBy === i ? !ascending : !c.numeric;
      sortBy = i;
      render();
    };
    th.addEventListener('click', sort);
    th.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        sort();
      }
    });
  });
  return head;
}

function body(t: UsageTable): HTMLTableSectionElement {
  const rows = [...t.rows];
  if (sortBy >= 0 && sortBy < t.columns.length) {
    rows.sort((a, b) => {
      const x = a.cells[sortBy]!.sort;
      const y = b.cells[sortBy]!.sort;
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return ascending ? c : -c;
    });
  }
  const tbody = el('tbody');
  for (const r of rows) {
    const tr = tbody.appendChild(el('tr'));
    r.cells.forEach((cell, i) => (tr.appendChild(el('td', cell.text)).className = t.columns[i]?.numeric ? 'num' : ''));
  }
  return tbody;
}

/** The rate limits: a plain table under its heading (a few rows: not sortable). */
function renderLimits(t: UsageTable | undefined): void {
  const host = document.getElementById('limits');
  if (!host) return;
  host.replaceChildren();
  const l = t?.limits;
  if (!l || !l.rows.length) return;
  host.appendChild(el('h2', l.title));
  const tableEl = host.appendChild(el('table'));
  const tr = tableEl.appendChild(el('thead')).appendChild(el('tr'));
  for (const c of l.columns) tr.appendChild(el('th', c.label)).className = c.numeric ? 'num plain' : 'plain';
  const tbody = tableEl.appendChild(el('tbody'));
  for (const r of l.rows) {
    const row = tbody.appendChild(el('tr'));
    r.cells.forEach((cell, i) => (row.appendChild(el('td', cell.text)).className = l.columns[i]?.numeric ? 'num' : ''));
  }
}

function render(): void {
  const t = table;
  const host = document.getElementById('table')!;
  host.replaceChildren();
  renderLimits(t);
  if (!t) return;
  for (const input of Array.from(document.querySelectorAll<HTMLInputElement>('input[name="by"]'))) input.checked = input.value === t.by;
  if (!t.rows.length) {
    host.appendChild(el('p', t.empty)).className = 'muted';
    return;
  }
  const tableEl = host.appendChild(el('table'));
  tableEl.append(header(t), body(t));
}

window.addEventListener('message', (e: MessageEvent<ToUsagePage>) => {
  if (e.data?.kind !== 'table') return;
  if (table?.by !== e.data.by) sortBy = -1;
  table = e.data;
  render();
});
for (const input of Array.from(document.querySelectorAll<HTMLInputElement>('input[name="by"]')))
  input.addEventListener('change', () => input.checked && api.postMessage({ kind: 'group', by: input.value as UsageTable['by'] }));
document.getElementById('export')?.addEventListener('click', () => api.postMessage({ kind: 'export' }));
api.postMessage({ kind: 'ready' });

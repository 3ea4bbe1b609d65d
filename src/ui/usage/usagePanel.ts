// ACP: Show Usage — one editor panel with the usage table (per session, agent or day), updated as
// sessions stream (at most one update per UPDATE_MS, after the change that asked for it) and
// exportable as CSV, with the agents' rate limits below it (each window's newest report). The page
// is a strict-CSP webview (media/src/usage.ts) that shows text only.
import * as vscode from 'vscode';
import { usageCsv, currencies, type UsageNames } from '../../app/usage/usageCsv';
import type { RateLimit } from '../../app/usage/rateLimits';
import type { UsageGrouping, UsageLedger, UsageRow } from '../../app/usage/usageLedger';
import { Disposable, toDisposable } from '../../common/lifecycle';
import { attr, makeNonce } from '../conversation/html';
import type { FromUsagePage, UsageColumn, UsageTable } from './usageMessages';
import { windowName } from './usageMeter';

const UPDATE_MS = 250;

export class UsagePanel extends Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private by: UsageGrouping = 'session';
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly ledger: UsageLedger,
    private readonly names: UsageNames,
  ) {
    super();
    this._register(ledger.onDidChange(() => this.schedule()));
    this._register(toDisposable(() => this.timer && clearTimeout(this.timer)));
    this._register(toDisposable(() => this.panel?.dispose()));
  }

  /** Opens (or shows) the panel; `by` picks the grouping. Returns the table it shows (tests read it). */
  show(by?: UsageGrouping): UsageTable {
    if (by) this.by = by;
    if (!this.panel) this.panel = this.open();
    else this.panel.reveal();
    return this.post();
  }

  /** Writes the shown grouping's CSV to `target`, or to a file the user picks. Returns where it went. */
  async exportCsv(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const uri =
      target ??
      (await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export Usage as CSV'),
        filters: { CSV: ['csv'] },
        defaultUri: vscode.Uri.file(`acp-usage-${this.by}.csv`),
      }));
    if (!uri) return undefined;
    await vscode.workspace.fs.writeFile(uri, Buffer.from(usageCsv(this.by, this.ledger.rows(this.by), this.names), 'utf8'));
    return uri;
  }

  private open(): vscode.WebviewPanel {
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist', 'media');
    const panel = vscode.window.createWebviewPanel('acp.usage', vscode.l10n.t('ACP Usage'), vscode.ViewColumn.Active, {
      enableScripts: true,
      localResourceRoots: [media, dist],
    });
    const w = panel.webview;
    panel.webview.html = page(w.cspSource, w.asWebviewUri(vscode.Uri.joinPath(dist, 'usage.js')), w.asWebviewUri(vscode.Uri.joinPath(media, 'usage.css')));
    const sub = w.onDidReceiveMessage((m: FromUsagePage) => {
      if (m?.kind === 'group' && (m.by === 'session' || m.by === 'agent' || m.by === 'day')) this.show(m.by);
      else if (m?.kind === 'ready') this.post();
      else if (m?.kind === 'export')
        void this.exportCsv().then(undefined, (e: unknown) =>
          vscode.window.showErrorMessage(vscode.l10n.t('The usage could not be exported: {0}', e instanceof Error ? e.message : String(e))),
        );
    });
    panel.onDidDispose(() => {
      sub.dispose();
      this.panel = undefined;
    });
    return panel;
  }

  private schedule(): void {
    if (!this.panel || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.post();
    }, UPDATE_MS);
  }

  private post(): UsageTable {
    const t = { ...table(this.by, this.ledger.rows(this.by), this.names), ...limitsTable(this.ledger.rateLimits(), this.names) };
    void this.panel?.webview.postMessage(t);
    return t;
  }
}

function columns(by: UsageGrouping, curs: readonly string[]): UsageColumn[] {
  const lead =
    by === 'day'
      ? [vscode.l10n.t('Day')]
      : by === 'agent'
        ? [vscode.l10n.t('Agent')]
        : [vscode.l10n.t('Agent'), vscode.l10n.t('Session'), vscode.l10n.t('Context')];
  return [
    ...lead.map((label) => ({ label, numeric: false })),
    ...[vscode.l10n.t('Turns'), vscode.l10n.t('Input tokens'), vscode.l10n.t('Output tokens'), vscode.l10n.t('Total tokens')].map((label) => ({
      label,
      numeric: true,
    })),
    ...curs.map((c) => ({ label: vscode.l10n.t('Cost ({0})', c), numeric: true })),
    { label: vscode.l10n.t('Last used'), numeric: false },
  ];
}

/** The table the page shows: names resolved, numbers formatted in the window's language. */
export function table(by: UsageGrouping, rows: readonly UsageRow[], names: UsageNames): UsageTable {
  const curs = currencies(rows);
  const n = (v: number): { text: string; sort: number } => ({ text: v.toLocaleString(vscode.env.language), sort: v });
  const s = (text: string): { text: string; sort: string } => ({ text, sort: text });
  return {
    kind: 'table',
    by,
    columns: columns(by, curs),
    rows: rows.map((r) => {
      const agent = names.agent(r.agentId ?? '');
      const ctx =
        r.context && r.context.size > 0 ? { text: `${Math.round((100 * r.context.used) / r.context.size)}%`, sort: r.context.used / r.context.size } : s('');
      const lead = by === 'day' ? [s(r.day ?? r.key)] : by === 'agent' ? [s(agent)] : [s(agent), s(names.session(r.agentId ?? '', r.sessionId ?? '')), ctx];
      const costs = curs.map((c) => ({
        text: (r.costs[c] ?? 0).toLocaleString(vscode.env.language, { style: 'currency', currency: c, maximumFractionDigits: 4 }),
        sort: r.costs[c] ?? 0,
      }));
      const last = { text: new Date(r.last).toLocaleString(vscode.env.language), sort: r.last };
      return { key: r.key, cells: [...lead, n(r.turns), n(r.inputTokens), n(r.outputTokens), n(r.totalTokens), ...costs, last] };
    }),
    empty: vscode.l10n.t('No usage yet: it is counted as agents report it (tokens when a turn ends, cost and context as they stream).'),
  };
}

/** The rate limits' table: per agent and window, used, the agent's status word, when it resets and when it was reported. */
export function limitsTable(limits: readonly { agentId: string; limit: RateLimit }[], names: UsageNames): Pick<UsageTable, 'limits'> {
  if (!limits.length) return {};
  const lang = vscode.env.language;
  const when = (t: number | undefined): { text: string; sort: number } => ({ text: t === undefined ? '' : new Date(t).toLocaleString(lang), sort: t ?? 0 });
  const columns = [
    vscode.l10n.t('Agent'),
    vscode.l10n.t('Window'),
    vscode.l10n.t('Used'),
    vscode.l10n.t('Status'),
    vscode.l10n.t('Resets at'),
    vscode.l10n.t('Reported'),
  ];
  return {
    limits: {
      title: vscode.l10n.t('Rate limits'),
      columns: columns.map((label, i) => ({ label, numeric: i === 2 })),
      rows: limits.map(({ agentId, limit: l }) => {
        const agent = names.agent(agentId);
        const used = l.usedPercent === undefined ? { text: '', sort: -1 } : { text: `${Math.round(l.usedPercent)}%`, sort: l.usedPercent };
        const status = l.status ?? '';
        const cells = [
          { text: agent, sort: agent },
          { text: windowName(l, vscode.l10n), sort: l.window },
          used,
          { text: status, sort: status },
          when(l.resetsAt),
          when(l.t),
        ];
        return { key: `${agentId}\0${l.window}`, cells };
      }),
    },
  };
}

function page(cspSource: string, script: vscode.Uri, style: vscode.Uri): string {
  const nonce = makeNonce();
  const csp = ["default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src ${cspSource}`].join('; ');
  const w = {
    title: attr(vscode.l10n.t('ACP Usage')),
    per: attr(vscode.l10n.t('Per')),
    session: attr(vscode.l10n.t('Session')),
    agent: attr(vscode.l10n.t('Agent')),
    day: attr(vscode.l10n.t('Day')),
    exportCsv: attr(vscode.l10n.t('Export CSV…')),
  };
  return `<!DOCTYPE html>
<html lang="${attr(vscode.env.language)}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">
<link rel="stylesheet" href="${attr(style.toString())}">
<title>${w.title}</title>
</head>
<body>
<header>
<fieldset><legend>${w.per}</legend>
<label><input type="radio" name="by" value="session" checked> ${w.session}</label>
<label><input type="radio" name="by" value="agent"> ${w.agent}</label>
<label><input type="radio" name="by" value="day"> ${w.day}</label>
</fieldset>
<button id="export" type="button">${w.exportCsv}</button>
</header>
<main id="table" aria-live="polite"></main>
<section id="limits"></section>
<script nonce="${nonce}" src="${attr(script.toString())}"></script>
</body>
</html>`;
}

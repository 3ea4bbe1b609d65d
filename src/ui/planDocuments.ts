// Read-only virtual documents of plans (scheme `acp-plan`): the current plan rendered as
// Markdown, its raw JSON, and any kept revision as Markdown (for the diff editor). Documents of the
// current plan follow its changes (onDidChange, coalesced per frame); revisions never change.
import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { planToMarkdown } from '../state/planExport';
import type { PlanRecord, PlanRef, PlanStore } from '../state/planStore';
import { FrameCoalescer } from './coalesce';

export const PLAN_SCHEME = 'acp-plan';

export type PlanDocView = { view: 'markdown' } | { view: 'json' } | { view: 'revision'; version: number };

export class PlanDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;
  private readonly coalescer = this._register(new FrameCoalescer<string>((keys) => this.fireChanged(keys)));

  constructor(
    private readonly plans: PlanStore,
    readonly scheme: string = PLAN_SCHEME,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(scheme, this));
    this._register(
      plans.onDidChange((c) => {
        if (c.kind === 'cleared') this.coalescer.add(`${c.agentId}\0`);
        else this.coalescer.add(refKey(c));
      }),
    );
  }

  /** The URI of a view of a plan. The path is only a readable name; the query locates the plan. */
  uri(ref: PlanRef, v: PlanDocView): vscode.Uri {
    const base = safeName(ref.planId);
    const name = v.view === 'json' ? `${base}.json` : v.view === 'revision' ? `${base} v${v.version}.md` : `${base}.md`;
    const q = new URLSearchParams({ a: ref.agentId, s: ref.sessionId, p: ref.planId });
    if (ref.archiveId !== undefined) q.set('x', String(ref.archiveId));
    q.set('view', v.view);
    if (v.view === 'revision') q.set('v', String(v.version));
    return vscode.Uri.from({ scheme: this.scheme, path: `/${name}`, query: q.toString() });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const parsed = parse(uri);
    if (!parsed) return 'Not a plan document.\n';
    const p = this.plans.get(parsed.ref);
    if (!p) return `The plan ${parsed.ref.planId} is no longer available.\n`;
    return render(p, parsed.view);
  }

  private fireChanged(keys: ReadonlySet<string>): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme !== this.scheme) continue;
      const parsed = parse(doc.uri);
      if (!parsed || parsed.view.view === 'revision') continue;
      const k = refKey(parsed.ref);
      if (keys.has(k) || keys.has(`${parsed.ref.agentId}\0`)) this._onDidChange.fire(doc.uri);
    }
  }
}

export function render(p: PlanRecord, v: PlanDocView): string {
  switch (v.view) {
    case 'json':
      return JSON.stringify(p.plan.type === 'unknown' ? p.plan.raw : p.plan, null, 2) + '\n';
    case 'markdown': {
      const truncated = p.revisions.at(-1)?.truncated;
      return planToMarkdown({ ...p, ...(truncated ? { truncated } : {}) });
    }
    case 'revision': {
      const r = p.revisions.find((x) => x.version === v.version);
      if (!r) return `Revision v${v.version} of ${p.planId} is no longer kept.\n`;
      return planToMarkdown({
        planId: p.planId,
        plan: r.plan,
        version: r.version,
        summary: r.summary,
        note: new Date(r.time).toLocaleString(),
        ...(r.truncated ? { truncated: r.truncated } : {}),
      });
    }
  }
}

export function parse(uri: vscode.Uri): { ref: PlanRef; view: PlanDocView } | undefined {
  const q = new URLSearchParams(uri.query);
  const a = q.get('a');
  const s = q.get('s');
  const p = q.get('p');
  if (a === null || s === null || p === null) return undefined;
  const x = q.get('x');
  const ref: PlanRef = x === null ? { agentId: a, sessionId: s, planId: p } : { agentId: a, sessionId: s, planId: p, archiveId: Number(x) };
  const view = q.get('view');
  if (view === 'json') return { ref, view: { view: 'json' } };
  if (view === 'revision') return { ref, view: { view: 'revision', version: Number(q.get('v')) } };
  return { ref, view: { view: 'markdown' } };
}

function refKey(r: { agentId: string; sessionId?: string; planId?: string }): string {
  return `${r.agentId}\0${r.sessionId ?? ''}\0${r.planId ?? ''}`;
}

function safeName(s: string): string {
  return s.replace(/[^\w.-]+/g, '_').slice(0, 60) || 'plan';
}

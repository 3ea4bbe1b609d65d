// The review comments in the editors (VS Code's Comments API): on the changed side of the diffs a
// review opens (`acp-step:` documents, whose query names the file; `acp-diff:` documents, whose path
// is the file) and on the file itself, a person comments a line or a range. Each comment of the
// model (src/app/review) shows as one thread per open document of its file, at its lines there.
// Bodies are Markdown that runs nothing (`isTrusted: false`); the agent's new code is a code block.
import * as vscode from 'vscode';
import { findLines, splitLines } from '../../app/review/anchor';
import type { ReviewComment, ReviewModel } from '../../app/review/reviewModel';
import { Disposable } from '../../common/lifecycle';

export const CONTROLLER_ID = 'acp-review';
const SCHEMES = new Set(['file', 'acp-step', 'acp-diff']);

/** The file a document shows, when it is one a review can comment on. */
export function fileOf(uri: vscode.Uri): string | undefined {
  if (!SCHEMES.has(uri.scheme)) return undefined;
  if (uri.scheme === 'file') return uri.fsPath;
  if (uri.scheme === 'acp-step') {
    const q = new URLSearchParams(uri.query);
    return q.get('side') === 'after' ? (q.get('file') ?? undefined) : undefined;
  }
  return uri.path;
}

export interface ThreadFacts {
  /** Whether a document of this file may take comments (a session changed it). */
  commentable(file: string): boolean;
  readOnly(c: ReviewComment): boolean;
  sendable(c: ReviewComment): boolean;
}

/** One comment shown in a thread; `id` is the model's (or `note:` + id for the agent's new code). */
export class ReviewThreadComment implements vscode.Comment {
  mode = vscode.CommentMode.Preview;
  body: vscode.MarkdownString;
  readonly author: vscode.CommentAuthorInformation;
  contextValue: string;
  label?: string;
  constructor(
    readonly id: string,
    text: string,
    author: string,
    context: string,
    label?: string,
  ) {
    this.body = md(text);
    this.author = { name: author };
    this.contextValue = context;
    if (label) this.label = label;
  }
}

function md(text: string): vscode.MarkdownString {
  const m = new vscode.MarkdownString(text);
  m.isTrusted = false;
  m.supportHtml = false;
  return m;
}

export class ReviewThreads extends Disposable {
  readonly controller: vscode.CommentController;
  /** Per comment id, its thread in each open document (by URI). */
  private readonly threads = new Map<string, Map<string, vscode.CommentThread>>();

  constructor(
    private readonly model: ReviewModel,
    private readonly facts: ThreadFacts,
  ) {
    super();
    this.controller = this._register(vscode.comments.createCommentController(CONTROLLER_ID, vscode.l10n.t('ACP Review')));
    this.controller.options = { prompt: vscode.l10n.t('Comment on this change for the agent…'), placeHolder: vscode.l10n.t('Your review comment') };
    this.controller.commentingRangeProvider = {
      provideCommentingRanges: (doc) => {
        const file = fileOf(doc.uri);
        return file && this.facts.commentable(file) ? [new vscode.Range(0, 0, Math.max(0, doc.lineCount - 1), 0)] : [];
      },
    };
    this._register(model.onDidChange((c) => (c.ids.length ? c.ids.forEach((id) => this.refresh(id)) : this.refreshAll())));
    this._register(vscode.workspace.onDidOpenTextDocument((d) => this.showIn(d)));
    this._register(
      vscode.workspace.onDidCloseTextDocument((d) => {
        const k = d.uri.toString();
        for (const m of this.threads.values()) {
          m.get(k)?.dispose();
          m.delete(k);
        }
      }),
    );
    this._register({ dispose: () => this.threads.forEach((m) => m.forEach((t) => t.dispose())) });
    for (const d of vscode.workspace.textDocuments) this.showIn(d);
  }

  /** A thread the person made (the + in the gutter) now stands for comment `id`. */
  adopt(id: string, thread: vscode.CommentThread): void {
    let m = this.threads.get(id);
    if (!m) this.threads.set(id, (m = new Map()));
    m.get(thread.uri.toString())?.dispose();
    m.set(thread.uri.toString(), thread);
    this.refresh(id);
  }

  /** The comment a thread shows. */
  commentOf(thread: vscode.CommentThread): ReviewComment | undefined {
    for (const [id, m] of this.threads) for (const t of m.values()) if (t === thread) return this.model.get(id);
    return undefined;
  }

  /** The threads of a comment (tests, and Reveal from a tree row). */
  threadsOf(id: string): vscode.CommentThread[] {
    return [...(this.threads.get(id)?.values() ?? [])];
  }

  private showIn(doc: vscode.TextDocument): void {
    const file = fileOf(doc.uri);
    if (file) for (const c of this.model.onFile(file)) this.refresh(c.id);
  }

  private refreshAll(): void {
    for (const id of [...this.threads.keys()]) this.refresh(id);
    for (const d of vscode.workspace.textDocuments) this.showIn(d);
  }

  /** Shows comment `id` as it is now in every open document of its file. */
  show(id: string): void {
    this.refresh(id);
  }

  private refresh(id: string): void {
    const c = this.model.get(id);
    const m = this.threads.get(id) ?? new Map<string, vscode.CommentThread>();
    if (!c) {
      m.forEach((t) => t.dispose());
      this.threads.delete(id);
      return;
    }
    this.threads.set(id, m);
    for (const doc of vscode.workspace.textDocuments) {
      if (fileOf(doc.uri) !== c.path) continue;
      const lines = splitLines(doc.getText());
      // Another text of the file (a diff's side) shows the thread where its lines are, as they are or as they were written.
      const r = doc.uri.scheme === 'file' ? { start: c.start, end: c.end } : (findLines(c.lines, c.start, lines) ?? findLines(c.written ?? [], c.start, lines));
      const key = doc.uri.toString();
      if (!r) {
        m.get(key)?.dispose();
        m.delete(key);
        continue;
      }
      const range = new vscode.Range(r.start, 0, Math.min(r.end, Math.max(0, doc.lineCount - 1)), 0);
      let t = m.get(doc.uri.toString());
      if (!t) {
        m.set(doc.uri.toString(), (t = this.controller.createCommentThread(doc.uri, range, [])));
        t.collapsibleState = vscode.CommentThreadCollapsibleState.Expanded;
      } else t.range = range;
      this.render(t, c);
    }
  }

  private render(t: vscode.CommentThread, c: ReviewComment): void {
    const ro = this.facts.readOnly(c);
    const you = vscode.l10n.t('You');
    const list: vscode.Comment[] = [
      new ReviewThreadComment(c.id, c.text, you, ro ? 'reviewComment:readonly' : 'reviewComment:editable', c.edited ? vscode.l10n.t('edited') : undefined),
    ];
    if (c.changed) {
      const what =
        c.gone === 'file'
          ? vscode.l10n.t('The agent deleted this file.')
          : c.gone === 'lines'
            ? vscode.l10n.t('The agent changed the file: these lines were removed.')
            : vscode.l10n.t('The agent changed these lines. They are now:');
      const note = new ReviewThreadComment(`note:${c.id}`, '', vscode.l10n.t('ACP Plans'), 'reviewNote');
      note.body = md(what);
      if (c.changed.lines.length) note.body.appendCodeblock(c.changed.lines.join('\n'));
      list.push(note);
    } else if (c.gone)
      list.push(
        new ReviewThreadComment(
          `note:${c.id}`,
          c.gone === 'file' ? vscode.l10n.t('The file was deleted.') : vscode.l10n.t('Lines removed.'),
          vscode.l10n.t('ACP Plans'),
          'reviewNote',
        ),
      );
    t.comments = list;
    t.canReply = false;
    t.label = threadLabel(c);
    t.state = c.state === 'resolved' ? vscode.CommentThreadState.Resolved : vscode.CommentThreadState.Unresolved;
    t.contextValue = ['review', c.state, c.changed ? 'changed' : '', ro ? 'readonly' : '', this.facts.sendable(c) ? 'sendable' : ''].filter(Boolean).join(':');
  }
}

/** The thread's title: its step, and whether it was sent and answered. */
export function threadLabel(c: ReviewComment): string {
  const parts = [c.step ? vscode.l10n.t('Step: {0}', c.step.label) : vscode.l10n.t('Review')];
  if (c.sent) {
    const time = (t: number): string => new Date(t).toLocaleTimeString();
    parts.push(
      c.sent.answered
        ? vscode.l10n.t('sent {0}, answered by the turn that ended {1}', time(c.sent.t), time(c.sent.answered))
        : vscode.l10n.t('sent {0}', time(c.sent.t)),
    );
  }
  if (c.state === 'resolved') parts.push(vscode.l10n.t('resolved'));
  else if (c.changed) parts.push(vscode.l10n.t('changed by the agent: resolve?'));
  return parts.join(' · ');
}

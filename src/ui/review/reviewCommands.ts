// The review's commands: add (the gutter's + and its submit, or a selection), edit, delete, resolve,
// reopen, Send Review to Agent, Explain This Change, Summarize This Step's Changes. Each takes what
// its menu passes (a comment thread, a comment, a tree row) or a plain `{id}` / `{agentId, sessionId}`.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { locate, splitLines } from '../../app/review/anchor';
import type { ReviewComment, ReviewModel, ReviewStep } from '../../app/review/reviewModel';
import { explainPrompt, reviewPrompt, summarizePrompt } from '../../app/review/reviewPrompt';
import type { SessionActions } from '../../app/sessionActions';
import type { SessionKey } from '../../state/sessionStore';
import { fileOf, ReviewThreadComment, type ReviewThreads } from './reviewThreads';

export interface ReviewCommandDeps {
  readonly model: ReviewModel;
  readonly threads: ReviewThreads;
  /** `steer`: into the running turn when its agent offers steering, else queued (SessionActions decides). */
  readonly actions: Pick<SessionActions, 'prompt' | 'steer'>;
  /** The session and step a comment on these lines of `file` belongs to. */
  target(file: string, start: number, end: number): (SessionKey & { step?: ReviewStep }) | undefined;
  /** The file's text now (the comment anchors to it), undefined when not readable. */
  liveText(file: string): Promise<string | undefined>;
  inside(file: string): boolean;
  rel(file: string): string;
  /** Whether prompts may go to the session (live, not restored or imported). */
  canSend(ref: SessionKey): boolean;
  busy(ref: SessionKey): boolean;
  /** A step row's session, label and changed files (each whole, or its changed lines). */
  stepFiles(arg: unknown): { ref: SessionKey; label: string; files: { path: string; start: number; end: number }[] } | undefined;
  /** Shows the session's conversation. */
  show(ref: SessionKey): Promise<void>;
}

/** The comment a command was given: a thread, a comment, a tree row or `{id}`. */
function idOf(deps: ReviewCommandDeps, arg: unknown): string | undefined {
  if (arg instanceof ReviewThreadComment) return arg.id.replace(/^note:/, '');
  const a = arg as { id?: unknown; key?: unknown; kind?: unknown; uri?: unknown } | undefined;
  if (a && a.kind === 'extra' && typeof a.key === 'string' && a.key.startsWith('review/')) return a.key.slice('review/'.length);
  if (a && a.uri instanceof vscode.Uri) return deps.threads.commentOf(arg as vscode.CommentThread)?.id;
  return a && typeof a.id === 'string' ? a.id : undefined;
}

export function registerReviewCommands(deps: ReviewCommandDeps): vscode.Disposable {
  const { model } = deps;
  const now = (): number => Date.now();
  const reg = (id: string, f: (arg?: unknown) => unknown): vscode.Disposable => vscode.commands.registerCommand(id, f);
  return vscode.Disposable.from(
    reg('acp.review.createComment', (arg) => createFromReply(deps, arg as vscode.CommentReply)),
    reg('acp.review.addComment', (arg) => addComment(deps, arg)),
    reg('acp.review.editComment', (arg) => {
      if (arg instanceof ReviewThreadComment) {
        arg.mode = vscode.CommentMode.Editing;
        for (const t of deps.threads.threadsOf(arg.id)) t.comments = [...t.comments];
      }
    }),
    reg('acp.review.saveComment', (arg) => {
      const id = idOf(deps, arg);
      if (id && arg instanceof ReviewThreadComment) model.edit(id, arg.body instanceof vscode.MarkdownString ? arg.body.value : String(arg.body), now());
    }),
    reg('acp.review.cancelEdit', (arg) => {
      const id = idOf(deps, arg);
      if (id) deps.threads.show(id);
    }),
    reg('acp.review.deleteComment', (arg) => {
      const id = idOf(deps, arg);
      if (id) model.remove(id, now());
    }),
    reg('acp.review.resolve', (arg) => setState(deps, arg, 'resolved')),
    reg('acp.review.reopen', (arg) => setState(deps, arg, 'open')),
    reg('acp.review.send', (arg) => sendReview(deps, arg)),
    reg('acp.review.explainChange', (arg) => explain(deps, arg)),
    reg('acp.review.summarizeStep', (arg) => summarize(deps, arg)),
  );
}

function setState(deps: ReviewCommandDeps, arg: unknown, state: 'open' | 'resolved'): boolean {
  const id = idOf(deps, arg);
  if (!id || !deps.model.get(id)) return false;
  deps.model.setState(id, state, Date.now());
  return true;
}

/** The submit of a new thread (the gutter's +): the thread becomes the comment's. */
async function createFromReply(deps: ReviewCommandDeps, reply: vscode.CommentReply): Promise<string | undefined> {
  const thread = reply?.thread;
  const file = thread && fileOf(thread.uri);
  if (!thread || !file || !thread.range) return undefined;
  const c = await create(deps, thread.uri, file, thread.range.start.line, thread.range.end.line, reply.text);
  if (c) deps.threads.adopt(c.id, thread);
  else thread.dispose();
  return c?.id;
}

/** `{uri, start, end, text}` (lines 0-based), or the active editor's selection and a typed text. */
async function addComment(deps: ReviewCommandDeps, arg: unknown): Promise<string | undefined> {
  const a = (arg ?? {}) as { uri?: unknown; start?: unknown; end?: unknown; text?: unknown };
  let uri = typeof a.uri === 'string' ? vscode.Uri.parse(a.uri) : a.uri instanceof vscode.Uri ? a.uri : undefined;
  let start = typeof a.start === 'number' ? a.start : undefined;
  let end = typeof a.end === 'number' ? a.end : start;
  let text = typeof a.text === 'string' ? a.text : undefined;
  const editor = vscode.window.activeTextEditor;
  if (!uri && editor) {
    uri = editor.document.uri;
    start = editor.selection.start.line;
    end = editor.selection.end.line;
  }
  const file = uri && fileOf(uri);
  if (!uri || !file || start === undefined || end === undefined) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Select lines in a file a session changed (or in a review diff) to comment on them.'));
    return undefined;
  }
  text ??= await vscode.window.showInputBox({ prompt: vscode.l10n.t('Your review comment for the agent') });
  if (!text) return undefined;
  return (await create(deps, uri, file, start, end, text))?.id;
}

async function create(deps: ReviewCommandDeps, uri: vscode.Uri, file: string, start: number, end: number, text: string): Promise<ReviewComment | undefined> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const docLines = splitLines(doc.getText());
  const lines = docLines.slice(start, end + 1);
  // The comment anchors to the file as it is now: a diff's side may hold an older text of it.
  let s = start;
  if (uri.scheme !== 'file') {
    const live = await deps.liveText(file);
    if (live !== undefined) s = locate(lines, start, splitLines(live)).start;
  }
  const e = s + (end - start);
  const target = deps.target(file, s, e);
  if (!target) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t('No session changed {0}: a review comment belongs to the session whose change it is on.', path.basename(file)),
    );
    return undefined;
  }
  const c = deps.model.add(
    { agentId: target.agentId, sessionId: target.sessionId, path: file, start: s, end: e, lines, text, ...(target.step ? { step: target.step } : {}) },
    Date.now(),
  );
  if (!c) void vscode.window.showWarningMessage(vscode.l10n.t('This session holds as many review comments as it can.'));
  return c;
}

/** The session a command names: a thread's, a comment's, a tree row's, `{agentId, sessionId}`. */
function sessionArg(deps: ReviewCommandDeps, arg: unknown): SessionKey | undefined {
  const a = arg as { agentId?: unknown; sessionId?: unknown } | undefined;
  if (a && typeof a.agentId === 'string' && typeof a.sessionId === 'string') return { agentId: a.agentId, sessionId: a.sessionId };
  const id = idOf(deps, arg);
  const c = id ? deps.model.get(id) : undefined;
  return c && { agentId: c.agentId, sessionId: c.sessionId };
}

/** Send Review to Agent: the session's open comments as one prompt; steered in a running turn when the agent can. */
export async function sendReview(deps: ReviewCommandDeps, arg: unknown): Promise<{ sent: string[]; how?: string }> {
  const ref = sessionArg(deps, arg);
  if (!ref) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Pick a session with review comments in the Plans view to send its review.'));
    return { sent: [] };
  }
  if (!deps.canSend(ref)) {
    void vscode.window.showWarningMessage(
      vscode.l10n.t(
        'This session is read-only (restored from the history or imported): its review comments stay here and go with an export, but cannot be sent.',
      ),
    );
    return { sent: [] };
  }
  const p = reviewPrompt(deps.model.comments(ref.agentId, ref.sessionId), deps.inside, deps.rel);
  if (!p.sent.length) {
    void vscode.window.showInformationMessage(vscode.l10n.t('This session has no open review comment to send.'));
    return { sent: [] };
  }
  let how: string;
  try {
    how = deps.busy(ref) ? await deps.actions.steer(ref, p.blocks) : deps.actions.prompt(ref, p.blocks);
  } catch (err) {
    void vscode.window.showErrorMessage(vscode.l10n.t('The review could not be sent: {0}', err instanceof Error ? err.message : String(err)));
    return { sent: [] };
  }
  deps.model.markSent(p.sent, Date.now());
  const notes: string[] = [];
  if (p.left) notes.push(vscode.l10n.t('{0} more comments were left for the next review (at most {1} per prompt).', p.left, p.sent.length));
  if (p.outside) notes.push(vscode.l10n.t('{0} comments on files outside the workspace were not sent.', p.outside));
  if (p.truncated) notes.push(vscode.l10n.t('{0} long comments were shortened in the prompt.', p.truncated));
  if (notes.length) void vscode.window.showInformationMessage(notes.join(' '));
  await deps.show(ref);
  return { sent: [...p.sent], how };
}

/** Explain This Change: a thread's lines, or the selection in a review diff / the file. */
async function explain(deps: ReviewCommandDeps, arg: unknown): Promise<boolean> {
  const id = idOf(deps, arg);
  const c = id ? deps.model.get(id) : undefined;
  let file = c?.path;
  let start = c?.start ?? 0;
  let end = c?.end ?? 0;
  const editor = vscode.window.activeTextEditor;
  if (!c && editor) {
    file = fileOf(editor.document.uri);
    start = editor.selection.start.line;
    end = editor.selection.end.line;
  }
  const target = file ? (c ? { agentId: c.agentId, sessionId: c.sessionId, ...(c.step ? { step: c.step } : {}) } : deps.target(file, start, end)) : undefined;
  if (!file || !target) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Select lines of a change a session made to ask about them.'));
    return false;
  }
  if (!deps.canSend(target)) {
    void vscode.window.showWarningMessage(vscode.l10n.t('This session is read-only (restored from the history or imported): ask in a running session.'));
    return false;
  }
  deps.actions.prompt(target, explainPrompt(file, start, end, deps.rel(file), target.step?.label));
  await deps.show(target);
  return true;
}

/** Summarize This Step's Changes: the step's changed lines of each file, named exactly. */
async function summarize(deps: ReviewCommandDeps, arg: unknown): Promise<boolean> {
  const s = deps.stepFiles(arg);
  if (!s || !s.files.length) {
    void vscode.window.showInformationMessage(
      vscode.l10n.t('Pick a plan step that changed files (right-click it in the Plans view) to summarize its changes.'),
    );
    return false;
  }
  if (!deps.canSend(s.ref)) {
    void vscode.window.showWarningMessage(vscode.l10n.t('This session is read-only (restored from the history or imported): ask in a running session.'));
    return false;
  }
  deps.actions.prompt(
    s.ref,
    summarizePrompt(
      s.label,
      s.files.map((f) => ({ ...f, rel: deps.rel(f.path) })),
    ),
  );
  await deps.show(s.ref);
  return true;
}

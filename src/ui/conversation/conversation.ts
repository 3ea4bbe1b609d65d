// The conversation component: the `acp.conversation` sidebar view and "open in a panel", both
// showing the active session's transcript. User actions come out as events; the owner (the
// extension) sends prompts, cancels turns and sets config options.
import * as vscode from 'vscode';
import { lazyModule } from '../../common/lazy';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { ContentBlock } from '../../protocol/domain';
import { elicitationItemId, permissionItemId, type Transcript } from '../../state/transcript';
import type { DiffDocuments } from './diffDocuments';
import type { ConversationHost, HostOwner } from './host';
import type { WorkspaceFiles } from './mentions';
import type { PromptCapabilities } from './promptBlocks';
import type { Attachment, ConversationFilter, DomSnapshot, FromWebview, InspectClick } from './webviewMessages';
import type { SessionFactsSource } from './viewModel';
import { parseSessionKey } from '../../state/sessionStore';

/**
 * The webview side (host, view model, deltas, message checks, what the webview's messages ask
 * for): in the extension bundle a file of its own, dist/conversation-view.js, loaded when a
 * conversation view or panel first opens; activation does not parse it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
const viewSide = lazyModule('conversation-view.js', () => require('./viewSide') as typeof import('./viewSide'));

export interface ConversationOptions {
  extensionUri: vscode.Uri;
  transcript: Transcript;
  /** What the session's agent accepts in prompts (decides how @-mentioned files are attached). */
  promptCapabilities?: (sessionId: string) => PromptCapabilities | undefined;
  log?: { error(message: string): void; warn(message: string): void };
  /** Items kept in the webview's DOM. Default 500. */
  windowSize?: number;
  /** The shortest time between two delta posts. Default 16 ms. */
  coalesceMs?: number;
  /** Turn state, title, config options and prompt queue of each session (owned by the SessionStore). */
  sessionFacts?: SessionFactsSource;
}

export interface PromptSubmission {
  /** The session shown when the prompt was typed; undefined when none was. */
  sessionId: string | undefined;
  text: string;
  attachments: Attachment[];
  /** Ready to send: the text, then each attachment as an embedded resource or a resource link. */
  blocks: ContentBlock[];
  /** Steer: into the running turn now (else Send / Queue). */
  steer: boolean;
}

export class Conversation extends Disposable implements vscode.WebviewViewProvider, HostOwner {
  static readonly viewId = 'acp.conversation';
  static readonly panelType = 'acp.conversationPanel';

  readonly transcript: Transcript;
  private readonly hostList: ConversationHost[] = [];
  private files: WorkspaceFiles | undefined;
  private diffs: DiffDocuments | undefined;
  private active: string | undefined;
  private filter: ConversationFilter | undefined;
  /** The session an "Open in Editor?" offer is on screen for (cleared when it is answered or dismissed). */
  private offering: string | undefined;
  /** The editor panels now open, by their host. */
  private readonly panels = new Map<ConversationHost, vscode.WebviewPanel>();
  /** The sidebar views and editor panels now on screen. */
  private readonly shown = new Set<{ readonly visible: boolean }>();

  private readonly submitEmitter = this._register(new vscode.EventEmitter<PromptSubmission>());
  private readonly cancelEmitter = this._register(new vscode.EventEmitter<{ sessionId: string }>());
  private readonly permissionEmitter = this._register(new vscode.EventEmitter<{ sessionId: string; requestId: string; optionId: string; option: number }>());
  private readonly configEmitter = this._register(new vscode.EventEmitter<{ sessionId: string; configId: string; value: string | boolean }>());
  private readonly unqueueEmitter = this._register(new vscode.EventEmitter<{ sessionId: string; id: string }>());
  private readonly activeEmitter = this._register(new vscode.EventEmitter<string | undefined>());
  private readonly elicitationEmitter = this._register(new vscode.EventEmitter<Omit<Extract<FromWebview, { type: 'elicitation' }>, 'type'>>());

  /** The user sent a prompt (Enter or Send). Queue it while a turn runs; the view shows the queue from `sessionFacts`. */
  readonly onDidSubmitPrompt = this.submitEmitter.event;
  /** The user pressed Cancel during a turn. */
  readonly onDidRequestCancel = this.cancelEmitter.event;
  /**
   * The user chose an option of a pending permission request. Nothing is recorded here: the owner
   * answers the request (the permission broker), and the prompt shows as answered once that
   * decision is applied to the transcript.
   */
  readonly onDidSelectPermissionOption = this.permissionEmitter.event;
  /** The user picked a config option value (mode, model, thought level…). */
  readonly onDidSetConfigOption = this.configEmitter.event;
  /** The user removed a queued prompt. */
  readonly onDidRemoveQueuedPrompt = this.unqueueEmitter.event;
  readonly onDidChangeActiveSession = this.activeEmitter.event;
  /** The user answered a pending elicitation in its card (the broker checks and sends it). */
  readonly onDidAnswerElicitation = this.elicitationEmitter.event;

  constructor(private readonly options: ConversationOptions) {
    super();
    this._register(toDisposable(() => this.diffs?.dispose()));
    this._register(
      toDisposable(() => {
        for (const h of [...this.hostList]) h.dispose();
      }),
    );
    this.transcript = options.transcript;
  }

  get activeSessionId(): string | undefined {
    return this.active;
  }
  get hosts(): readonly ConversationHost[] {
    return this.hostList;
  }
  /** A conversation view or panel is on screen. */
  get visible(): boolean {
    return [...this.shown].some((v) => v.visible);
  }

  /** Shows this session (or none) in every conversation view. */
  setActiveSession(sessionId: string | undefined): void {
    if (sessionId === this.active) return;
    this.active = sessionId;
    for (const h of this.hostList) h.pump.setSession(sessionId);
    this.activeEmitter.fire(sessionId);
  }

  /** Shows only some items of a session (the work of a plan step), until cleared; undefined clears. */
  setFilter(filter: ConversationFilter | undefined): void {
    this.filter = filter;
    for (const h of this.hostList) if (h.ready) h.post({ type: 'filter', filter: filter ?? null });
  }

  get currentFilter(): ConversationFilter | undefined {
    return this.filter;
  }

  onReady(host: ConversationHost): void {
    if (this.filter) host.post({ type: 'filter', filter: this.filter });
  }

  /** Registers the sidebar view `acp.conversation` (contributed in package.json). */
  registerView(): vscode.Disposable {
    return vscode.window.registerWebviewViewProvider(Conversation.viewId, this, { webviewOptions: { retainContextWhenHidden: false } });
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    const host = this.addHost(view.webview, 'view');
    this.shown.add(view);
    host.onDidDispose(() => this.shown.delete(view));
    const visibility = view.onDidChangeVisibility(() => {
      if (!view.visible) host.hidden();
    });
    const disposed = view.onDidDispose(() => host.dispose());
    host.onDidDispose(() => {
      visibility.dispose();
      disposed.dispose();
    });
  }

  /** Opens the conversation in an editor panel ("ACP: Open Conversation"). */
  openPanel(column: vscode.ViewColumn = vscode.ViewColumn.Beside): ConversationHost {
    const panel = vscode.window.createWebviewPanel(
      Conversation.panelType,
      vscode.l10n.t('ACP Conversation'),
      { viewColumn: column, preserveFocus: false },
      {
        ...viewSide().webviewOptions(this.options.extensionUri),
        enableFindWidget: true,
        retainContextWhenHidden: false,
      },
    );
    panel.iconPath = vscode.Uri.joinPath(this.options.extensionUri, 'media', 'acp.svg');
    const host = this.addHost(panel.webview, 'panel');
    this.shown.add(panel);
    this.panels.set(host, panel);
    host.onDidDispose(() => {
      this.shown.delete(panel);
      this.panels.delete(host);
    });
    const state = panel.onDidChangeViewState(() => {
      if (!panel.visible) host.hidden();
    });
    const disposed = panel.onDidDispose(() => host.dispose());
    host.onDidDispose(() => {
      state.dispose();
      disposed.dispose();
      panel.dispose();
    });
    return host;
  }

  /** Focuses the sidebar view. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand(`${Conversation.viewId}.focus`);
  }

  /** What the first ready conversation webview shows (for tests and diagnostics). */
  requestDomSnapshot(click?: InspectClick): Promise<DomSnapshot> {
    const host = this.hostList.find((h) => h.ready) ?? this.hostList[0];
    if (!host) return Promise.reject(new Error('no conversation view is open'));
    return host.requestDomSnapshot(click);
  }

  handleMessage(msg: FromWebview, host: ConversationHost): void {
    void this.handle(msg, host).catch((e: unknown) =>
      this.reportError(`conversation: ${msg.type} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
    );
  }

  reportError(message: string): void {
    this.options.log?.error(message);
  }

  private addHost(webview: vscode.Webview, kind: 'view' | 'panel'): ConversationHost {
    const host = new (viewSide().ConversationHost)(webview, kind, this.options.extensionUri, this, {
      windowSize: this.options.windowSize,
      coalesceMs: this.options.coalesceMs,
      ...(this.options.sessionFacts ? { facts: this.options.sessionFacts } : {}),
    });
    this.hostList.push(host);
    host.onDidDispose(() => {
      const i = this.hostList.indexOf(host);
      if (i >= 0) this.hostList.splice(i, 1);
    });
    return host;
  }

  private async handle(msg: FromWebview, host: ConversationHost): Promise<void> {
    switch (msg.type) {
      case 'submit':
        return this.submit(msg);
      case 'pickMedia': {
        const caps = msg.sessionId ? this.options.promptCapabilities?.(msg.sessionId) : undefined;
        host.post({ type: 'mediaPicked', ...(await viewSide().pickMedia(caps)) });
        return;
      }
      case 'cancel':
        return this.cancelEmitter.fire({ sessionId: msg.sessionId });
      case 'newSession': {
        const ref = parseSessionKey(msg.sessionId);
        if (ref) await vscode.commands.executeCommand('acp.newSession', ref.agentId);
        return;
      }
      case 'permission':
        return this.permission(msg);
      case 'elicitation':
        return this.elicitation(msg);
      case 'setConfig':
        return this.setConfig(msg);
      case 'removeQueued':
        return this.unqueueEmitter.fire({ sessionId: msg.sessionId, id: msg.id });
      case 'openLocation':
        return viewSide().openLocation(msg.path, msg.line);
      case 'openLink':
        await viewSide().openLink(msg.href);
        return;
      case 'openDiff':
        return this.openDiff(msg);
      case 'mentionQuery':
        host.post({ type: 'mentionResults', reqId: msg.reqId, items: await (this.files ??= new (viewSide().WorkspaceFiles)()).query(msg.query) });
        return;
      case 'loadEarlier':
        return host.pump.sendEarlier(msg.sessionId, msg.before, msg.count);
      case 'clearFilter':
        return this.setFilter(undefined);
      case 'cramped':
        return this.cramped(msg, host);
      case 'error':
        return this.reportError(`conversation webview: ${msg.message}`);
      // Answered by the host itself (ConversationHost.receive).
      case 'ready':
      case 'applied':
      case 'inspectResult':
        return;
      default:
        msg satisfies never;
    }
  }

  /** A prompt from the composer: its attachments confirmed and read, its media checked, then passed on. */
  private async submit(msg: Extract<FromWebview, { type: 'submit' }>): Promise<void> {
    const sessionId = msg.sessionId ?? undefined;
    const caps = sessionId ? this.options.promptCapabilities?.(sessionId) : undefined;
    const { buildPromptBlocks, confirmOutside, mediaBlocks } = viewSide();
    const { keep, linkOnly } = await confirmOutside(msg.attachments);
    const blocks = await buildPromptBlocks(msg.text, keep, caps, (uri) => (linkOnly.has(uri) ? Promise.resolve(undefined) : readWorkspaceText(uri)));
    const media = mediaBlocks(msg.media ?? [], caps, vscode.l10n);
    if (media.problems.length) void vscode.window.showWarningMessage(media.problems.join(' '));
    const all = [...blocks, ...media.blocks];
    if (!all.length) return; // nothing typed, and nothing attached that can be sent (said above)
    this.submitEmitter.fire({ sessionId, text: msg.text, attachments: keep, blocks: all, steer: msg.steer === true });
  }

  /** Passes an answer on for an elicitation still pending only. */
  private elicitation(msg: Extract<FromWebview, { type: 'elicitation' }>): void {
    const item = this.transcript.session(msg.sessionId)?.item(elicitationItemId(msg.requestId));
    if (item?.kind === 'elicitation' && item.state === 'pending')
      this.elicitationEmitter.fire({
        sessionId: msg.sessionId,
        requestId: msg.requestId,
        action: msg.action,
        ...(msg.values ? { values: msg.values } : {}),
      });
    else this.options.log?.warn(`conversation: ignored an answer to elicitation ${msg.requestId} (not pending)`);
  }

  private openDiff(msg: Extract<FromWebview, { type: 'openDiff' }>): Promise<void> | undefined {
    const item = this.transcript.session(msg.sessionId)?.item(msg.itemId);
    const content = item?.kind === 'tool_call' ? item.content[msg.index] : undefined;
    if (content?.type !== 'diff') return;
    this.diffs ??= new (viewSide().DiffDocuments)();
    return this.diffs.open(content, msg.file);
  }

  /**
   * Passes the user's choice on, for a request still pending and an option the agent offered only.
   * The transcript is not touched here: the prompt turns answered when the decision comes back.
   */
  private permission(msg: Extract<FromWebview, { type: 'permission' }>): void {
    const item = this.transcript.session(msg.sessionId)?.item(permissionItemId(msg.requestId));
    if (item?.kind !== 'permission' || item.state !== 'pending' || item.options[msg.option]?.optionId !== msg.optionId) {
      this.options.log?.warn(`conversation: ignored an answer to permission request ${msg.requestId} (not pending or unknown option)`);
      return;
    }
    this.permissionEmitter.fire({ sessionId: msg.sessionId, requestId: msg.requestId, optionId: msg.optionId, option: msg.option });
  }

  /**
   * A card does not fit the side bar's Conversation: as the user chose (acp.conversation.cardRoom),
   * open an editor tab or offer one; a tab open already is brought forward, not doubled. While an
   * offer for the shown session waits for its answer, that session is not offered again; whatever
   * the answer (or none: dismissed) the flag is cleared, and it never holds back another session.
   */
  private async cramped(msg: Extract<FromWebview, { type: 'cramped' }>, host: ConversationHost): Promise<void> {
    if (host.kind !== 'view' || [...this.panels.values()].some((p) => p.visible)) return;
    const choice = viewSide().cardRoomChoice();
    if (choice === 'sideBar') return;
    if (choice === 'ask') {
      const session = this.active ?? '';
      if (this.offering === session) return;
      this.offering = session;
      let open: boolean;
      try {
        open = await viewSide().offerEditor(msg.needed, msg.available);
      } finally {
        if (this.offering === session) this.offering = undefined;
      }
      if (!open || this.isDisposed) return;
    }
    const panel = [...this.panels.values()][0];
    if (panel) panel.reveal(panel.viewColumn, false);
    else this.openPanel(vscode.ViewColumn.Active);
  }

  private setConfig(msg: Extract<FromWebview, { type: 'setConfig' }>): void {
    const opt = this.options.sessionFacts?.get(msg.sessionId)?.configOptions.find((o) => o.id === msg.configId);
    const valid =
      opt?.kind === 'select'
        ? typeof msg.value === 'string' && opt.options.some((o) => o.value === msg.value)
        : opt?.kind === 'boolean'
          ? typeof msg.value === 'boolean'
          : false;
    if (!valid) {
      this.options.log?.warn(`conversation: ignored an invalid value for config option ${msg.configId}`);
      return;
    }
    this.configEmitter.fire({ sessionId: msg.sessionId, configId: msg.configId, value: msg.value });
  }
}

async function readWorkspaceText(uri: string): Promise<string | undefined> {
  const u = vscode.Uri.parse(uri, true);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === u.toString());
  if (open) return open.getText();
  if ((await vscode.workspace.fs.stat(u)).size > 4 * viewSide().MAX_EMBEDDED_CHARS) return undefined;
  const bytes = await vscode.workspace.fs.readFile(u);
  if (bytes.includes(0)) return undefined; // binary
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

// One webview showing the conversation (the sidebar view or a panel): sets up its page, feeds it
// through a DeltaPump and hands its validated messages to the Conversation.
import { pageStrings } from './webviewStrings';
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { Transcript } from '../../state/transcript';
import { conversationHtml } from './html';
import type { DomSnapshot, FromWebview, InspectClick, ToWebview } from './webviewMessages';
import { DeltaPump, type PumpOptions, type PumpStats } from './pump';
import { parseFromWebview } from './validate';
import { rendererPace } from '../renderPace';

export interface HostOwner {
  readonly transcript: Transcript;
  readonly activeSessionId: string | undefined;
  handleMessage(msg: FromWebview, host: ConversationHost): void;
  /** The webview (re)loaded and got its snapshot: what else it must be told (a filter). */
  onReady?(host: ConversationHost): void;
  reportError(message: string): void;
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist', 'media')],
  };
}

export class ConversationHost extends Disposable {
  readonly pump: DeltaPump;
  private readonly inspections = new Map<number, (s: DomSnapshot) => void>();
  private inspectSeq = 0;
  private readyWaiters: (() => void)[] = [];
  private isReady = false;
  private disposed = false;
  private readonly onDisposeEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this.onDisposeEmitter.event;

  constructor(
    readonly webview: vscode.Webview,
    readonly kind: 'view' | 'panel',
    extensionUri: vscode.Uri,
    private readonly owner: HostOwner,
    pumpOptions: PumpOptions = {},
  ) {
    super();
    this._register(toDisposable(() => this.inspections.clear()));
    webview.options = webviewOptions(extensionUri);
    this.pump = this._register(new DeltaPump(owner.transcript, (m) => this.post(m), { l10n: vscode.l10n, pace: rendererPace, ...pumpOptions }));
    this.pump.setSession(owner.activeSessionId);
    this._register(webview.onDidReceiveMessage((m: unknown) => this.receive(m)));
    webview.html = conversationHtml(
      {
        cspSource: webview.cspSource,
        script: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'media', 'conversation.js')).toString(),
        style: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'conversation.css')).toString(),
      },
      undefined,
      pageStrings(vscode.l10n),
      vscode.env.language,
    );
  }

  get stats(): PumpStats {
    return this.pump.stats;
  }
  get ready(): boolean {
    return this.isReady;
  }

  /** Resolves once the webview's script has loaded and received its snapshot. */
  whenReady(): Promise<void> {
    if (this.isReady) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Handles a message as if the webview had posted it (the webview's own messages come here too). */
  receive(raw: unknown): void {
    const msg = parseFromWebview(raw);
    if (!msg) {
      this.owner.reportError(`conversation: ignored an invalid message from the webview: ${JSON.stringify(raw)?.slice(0, 200)}`);
      return;
    }
    switch (msg.type) {
      case 'ready':
        this.isReady = true;
        this.pump.start();
        this.owner.onReady?.(this);
        for (const w of this.readyWaiters.splice(0)) w();
        return;
      case 'applied':
        this.pump.answered(msg.seq);
        return;
      case 'inspectResult':
        this.inspections.get(msg.reqId)?.(msg.snapshot);
        this.inspections.delete(msg.reqId);
        return;
      default:
        this.owner.handleMessage(msg, this);
    }
  }

  /**
   * What the webview shows: its `innerText`, a summary per item and its counters. With `click`,
   * the webview first clicks the first element matching the selector (and containing `text`).
   */
  requestDomSnapshot(click?: InspectClick, timeoutMs = 10_000): Promise<DomSnapshot> {
    const reqId = ++this.inspectSeq;
    return new Promise<DomSnapshot>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.inspections.delete(reqId);
        reject(new Error('the conversation webview did not answer'));
      }, timeoutMs);
      this.inspections.set(reqId, (s) => {
        clearTimeout(timer);
        resolve(s);
      });
      this.post({ type: 'inspect', reqId, click });
    });
  }

  /** The webview was hidden (and will reload): stop posting until it is ready again. */
  hidden(): void {
    this.isReady = false;
    this.pump.pause();
  }

  /** Posts to the webview; what it returns settles when the workbench has read the message. */
  post(msg: ToWebview): PromiseLike<unknown> | undefined {
    if (this.disposed) return undefined;
    const read = Promise.resolve(this.webview.postMessage(msg));
    read.catch(() => undefined);
    return read;
  }

  override dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.onDisposeEmitter.fire();
    super.dispose();
  }
}

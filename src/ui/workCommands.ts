// The commands on a plan step's work: Review Changes of This Step, Show Work of This Step, Revert
// Changes of This Step, and the step timeline of Show Plan History. What they do lives in
// workActions.ts, a bundle of its own (dist/work-actions.js, the `lazyModule` below) loaded on the first use, so activation and the extension bundle do not pay for it. This
// file keeps the read-only `acp-step:` documents those actions open (bounded), so they outlive a
// command.
import * as vscode from 'vscode';
import { lazyModule } from '../common/lazy';
import { Disposable, toDisposable } from '../common/lifecycle';
import type { WorkStore } from '../state/attribution/workStore';
import type { PlanRef } from '../state/planStore';
import type { SessionStore } from '../state/sessionStore';
import type { Conversation } from './conversation';
import type * as Actions from './workActions';

export const STEP_SCHEME = 'acp-step';
const MAX_DOCS = 200;
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
const workActions = lazyModule('work-actions.js', () => require('./workActions') as typeof Actions);

export class WorkCommands extends Disposable {
  private readonly docs = new Map<string, string>();
  private seq = 0;
  private actions: Actions.WorkActions | undefined;

  constructor(
    private readonly work: WorkStore,
    private readonly store: SessionStore,
    private readonly conversation: Conversation,
    private readonly checkpoints?: Actions.WorkActionsHost['checkpoints'],
  ) {
    super();
    this._register(toDisposable(() => this.docs.clear()));
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(STEP_SCHEME, {
        provideTextDocumentContent: (uri) => this.docs.get(uri.toString()) ?? vscode.l10n.t('(no longer kept)'),
      }),
    );
    this._register(vscode.commands.registerCommand('acp.reviewStepChanges', (arg?: unknown) => this.load()?.review(arg)));
    this._register(vscode.commands.registerCommand('acp.showStepWork', (arg?: unknown) => this.load()?.showWork(arg)));
    this._register(vscode.commands.registerCommand('acp.revertStepChanges', (arg?: unknown) => this.load()?.revert(arg)));
    this._register(vscode.commands.registerCommand('acp.restoreWorkspaceToStep', (arg?: unknown) => this.load()?.rewind(arg)));
    this._register(vscode.commands.registerCommand('acp.undoRestoreWorkspace', () => this.load()?.undoRestore()));
    this._register(vscode.commands.registerCommand('acp.reviewSessionChanges', (arg?: unknown) => this.load()?.reviewSession(arg, 'session')));
    this._register(vscode.commands.registerCommand('acp.reviewTurnChanges', (arg?: unknown) => this.load()?.reviewSession(arg, 'turn')));
  }

  /** Opens a plan's step timeline and drift; undefined when the plan has no work index. */
  async showTimeline(ref: PlanRef): Promise<vscode.Uri | undefined> {
    return this.load()?.showTimeline(ref);
  }

  private load(): Actions.WorkActions | undefined {
    if (this.actions) return this.actions;
    try {
      this.actions = workActions().createWorkActions({
        work: this.work,
        store: this.store,
        conversation: this.conversation,
        ...(this.checkpoints ? { checkpoints: this.checkpoints } : {}),
        nextBatch: () => ++this.seq,
        doc: (batch, side, file, name, text) => {
          // Both sides share the path (the diff editor shows a change, not a rename); the side and the file are in the query.
          const uri = vscode.Uri.from({ scheme: STEP_SCHEME, path: `/${batch}/${name}`, query: new URLSearchParams({ side, file }).toString() });
          this.docs.set(uri.toString(), text);
          while (this.docs.size > MAX_DOCS) this.docs.delete(this.docs.keys().next().value!);
          return uri;
        },
      });
    } catch (err) {
      // The loader's message names work-actions.js and says to reinstall.
      void vscode.window.showErrorMessage(err instanceof Error ? err.message : String(err));
    }
    return this.actions;
  }
}

// Checkpoints wired into the extension: the service (src/app/checkpoints) with each workspace
// folder's shadow repository in the workspace storage (`checkpoints/<hash of the folder>.git`),
// the engine (src/checkpoints, a bundle of its own loaded at the first checkpoint), the session
// history as the place intervals are kept, and the session store's turn ends.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Checkpoints } from '../app/checkpoints/checkpoints';
import type { SessionHistory } from '../app/history/sessionHistory';
import type * as Engine from '../checkpoints/shadowRepo';
import { lazyModule } from '../common/lazy';
import { toDisposable, type IDisposable } from '../common/lifecycle';
import { isImportedAgent, isReplayAgent } from '../common/pseudoAgents';
import type { Config } from '../platform/config';
import { workspaceRoots } from '../platform/workspace';
import type { WorkStore } from '../state/attribution/workStore';
import type { SessionStore } from '../state/sessionStore';
import { checkpointWords } from '../ui/checkpointWords';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at the first checkpoint
const engine = lazyModule('checkpoints.js', () => require('../checkpoints/shadowRepo') as typeof Engine);

export interface CheckpointWiring {
  readonly storageDir: string;
  readonly config: Config;
  readonly work: WorkStore;
  readonly store: SessionStore;
  history(): SessionHistory | undefined;
  /** The folders a session works in (the agent's roots), when its agent runs. */
  roots(agentId: string, sessionId: string): readonly string[] | undefined;
  log(line: string): void;
}

export function createCheckpoints(w: CheckpointWiring): { checkpoints: Checkpoints; disposable: IDisposable } {
  const dir = path.join(w.storageDir, 'checkpoints');
  const checkpoints = new Checkpoints({
    work: w.work,
    folders: (agentId, sessionId) => w.roots(agentId, sessionId) ?? workspaceRoots(),
    isWorkspaceFolder: (folder) => workspaceRoots().includes(folder),
    open: (folder) =>
      engine().ShadowRepo.open({
        gitDir: path.join(dir, `${createHash('sha256').update(folder).digest('hex').slice(0, 16)}.git`),
        workTree: folder,
        maxStoreBytes: w.config.checkpointsMaxStorageBytes(),
        maxFileBytes: w.config.checkpointsMaxFileBytes(),
        log: (line) => w.log(`checkpoints: ${line}`),
      }),
    record: (agentId, sessionId, ckpt, t) => w.history()?.record(agentId, sessionId, { t, ckpt }),
    merge: (base, current, wanted) => engine().threeWay('git', base, current, wanted),
    problem: (reason) => void vscode.window.showWarningMessage(checkpointWords(reason, vscode.l10n)),
    log: w.log,
    enabled: (agentId) => w.config.checkpointsEnabled() && vscode.workspace.isTrusted && !isImportedAgent(agentId) && !isReplayAgent(agentId),
  });
  const sub = w.store.onDidChange((c) => {
    if (c.scope !== 'session' || c.kind === 'added') return;
    const s = w.store.session(c.agentId, c.sessionId);
    if (!s || s.turnState === 'idle' || !s.live) checkpoints.turnEnded(c.agentId, c.sessionId);
  });
  return {
    checkpoints,
    disposable: toDisposable(() => {
      sub.dispose();
      checkpoints.dispose();
    }),
  };
}

// Feature: checkpoints and a step's work. The service (src/app/checkpoints) with each workspace
// folder's shadow repository in the workspace storage (`checkpoints/<hash of the folder>.git`) and
// the engine (src/checkpoints, a bundle of its own loaded at the first checkpoint): a checkpoint
// before each turn (the session events' onWillStartTurn), the changes after each event, the turn
// ends from the session store, the intervals kept in the history. And the step commands that
// review, show, revert and rewind (src/ui/workCommands.ts).
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Checkpoints } from '../../app/checkpoints/checkpoints';
import type * as Engine from '../../checkpoints/shadowRepo';
import { lazyModule } from '../../common/lazy';
import { DisposableStore } from '../../common/lifecycle';
import { isImportedAgent, isReplayAgent } from '../../common/pseudoAgents';
import { workspaceRoots } from '../../platform/workspace';
import { checkpointWords } from '../../ui/checkpointWords';
import { WorkCommands } from '../../ui/workCommands';
import type { Feature, FeatureHost } from '../host';
import { CHECKPOINTS, CONVERSATION, HISTORY, STEP_WORK } from '../ports';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at the first checkpoint
const engine = lazyModule('checkpoints.js', () => require('../../checkpoints/shadowRepo') as typeof Engine);

export const checkpointsFeature: Feature = {
  name: 'checkpoints and step work',
  activate(host) {
    const owned = new DisposableStore();
    const storage = host.context.storageUri?.fsPath;
    const checkpoints = storage ? start(host, path.join(storage, 'checkpoints'), owned) : undefined;
    const conversation = host.port(CONVERSATION);
    if (!conversation) throw new Error('the conversation feature must come before step work');
    host.offer(STEP_WORK, owned.add(new WorkCommands(host.work, host.store, conversation, checkpoints)));
    return owned;
  },
};

function start(host: FeatureHost, dir: string, owned: DisposableStore): Checkpoints {
  const { config, logs } = host;
  const log = (line: string): void => logs.main.info(line);
  const checkpoints = new Checkpoints({
    work: host.work,
    folders: (agentId, sessionId) => host.agents.get(agentId)?.roots(sessionId) ?? workspaceRoots(),
    isWorkspaceFolder: (folder) => workspaceRoots().includes(folder),
    open: (folder) =>
      engine().ShadowRepo.open({
        gitDir: path.join(dir, `${createHash('sha256').update(folder).digest('hex').slice(0, 16)}.git`),
        workTree: folder,
        maxStoreBytes: config.checkpointsMaxStorageBytes(),
        maxFileBytes: config.checkpointsMaxFileBytes(),
        log: (line) => log(`checkpoints: ${line}`),
      }),
    record: (agentId, sessionId, ckpt, t) => host.port(HISTORY)?.history.record(agentId, sessionId, { t, ckpt }),
    merge: (base, current, wanted) => engine().threeWay('git', base, current, wanted),
    problem: (reason) => void vscode.window.showWarningMessage(checkpointWords(reason, vscode.l10n)),
    log,
    enabled: (agentId) => config.checkpointsEnabled() && vscode.workspace.isTrusted && !isImportedAgent(agentId) && !isReplayAgent(agentId),
  });
  owned.add(checkpoints);
  host.offer(CHECKPOINTS, checkpoints);
  owned.add(host.events.onDidApply(({ agentId, event }) => checkpoints.afterEvent(agentId, event)));
  owned.add(host.events.onWillStartTurn((ref) => checkpoints.turnStarting(ref.agentId, ref.sessionId)));
  owned.add(
    host.store.onDidChange((c) => {
      if (c.scope !== 'session' || c.kind === 'added') return;
      const s = host.store.session(c.agentId, c.sessionId);
      if (!s || s.turnState === 'idle' || !s.live) checkpoints.turnEnded(c.agentId, c.sessionId);
    }),
  );
  return checkpoints;
}

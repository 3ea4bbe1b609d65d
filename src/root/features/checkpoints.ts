// Feature: checkpoints and a step's work. Checkpoints of the workspace folders while agents work
// (src/app/checkpoints; a checkpoint before each turn, the changes after each event, kept in the
// history) and the step commands that review, show, revert and rewind (src/ui/workCommands.ts).
import { toDisposable } from '../../common/lifecycle';
import { WorkCommands } from '../../ui/workCommands';
import { createCheckpoints } from '../checkpointWiring';
import type { Feature } from '../host';
import { CHECKPOINTS, CONVERSATION, HISTORY, STEP_WORK } from '../ports';

export const checkpointsFeature: Feature = {
  name: 'checkpoints and step work',
  activate(host) {
    const storage = host.context.storageUri?.fsPath;
    const c = storage
      ? createCheckpoints({
          storageDir: storage,
          config: host.config,
          work: host.work,
          store: host.store,
          history: () => host.port(HISTORY)?.history,
          roots: (agentId, sessionId) => host.agents.get(agentId)?.roots(sessionId),
          log: (line) => host.logs.main.info(line),
        })
      : undefined;
    const checkpoints = c?.checkpoints;
    if (checkpoints) host.offer(CHECKPOINTS, checkpoints);
    const subs = checkpoints
      ? [
          host.events.onDidApply(({ agentId, event }) => checkpoints.afterEvent(agentId, event)),
          host.events.onWillStartTurn((ref) => checkpoints.turnStarting(ref.agentId, ref.sessionId)),
        ]
      : [];
    const conversation = host.port(CONVERSATION);
    if (!conversation) throw new Error('the conversation feature must come before step work');
    const work = new WorkCommands(host.work, host.store, conversation, checkpoints);
    host.offer(STEP_WORK, work);
    return toDisposable(() => {
      work.dispose();
      for (const s of subs) s.dispose();
      c?.disposable.dispose();
    });
  },
};

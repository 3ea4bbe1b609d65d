// The one path from a click on a subagent or a background row to the agent: cancel a child
// session's work (`session/cancel` on the child), cancel a background terminal (`terminal/cancel`)
// or tool call (`tool_call/cancel`). Each is sent only while the agent offers it (the child's or
// the item's `capabilities.cancel`, as kept by the SessionStore). Throws person-readable errors.
import type { AgentManager } from '../agents/agentManager';
import type { BackgroundWork } from '../protocol/domain';
import type { SessionKey, SessionStore } from '../state/sessionStore';
import { canCancel } from '../state/subagentState';

export class BackgroundActions {
  constructor(
    private readonly agents: AgentManager,
    private readonly store: SessionStore,
  ) {}

  /** Cancels a child session's current work; the child stays (the agent may reuse it). */
  cancelSubagent(ref: SessionKey): void {
    const s = this.store.session(ref.agentId, ref.sessionId);
    if (!s?.subagent) throw new Error('This session is not a subagent of a session here, so there is nothing to cancel from its row.');
    if (!s.subagent.cancellable) throw new Error("The agent does not let clients cancel this subagent. Cancel the parent session's turn instead.");
    this.connection(ref.agentId).cancel(ref.sessionId);
  }

  /** Cancels one background terminal or tool call of a session. */
  async cancelWork(ref: SessionKey, item: BackgroundWork): Promise<void> {
    const s = this.store.session(ref.agentId, ref.sessionId);
    const what = item.type === 'terminal' ? `terminal ${item.terminalId}` : item.type === 'tool_call' ? `tool call ${item.toolCallId}` : 'this work';
    if (!s || !canCancel(s.controls, item))
      throw new Error(`The agent does not offer to cancel ${what} (any more). It may have finished; the row goes once the agent reports it.`);
    const conn = this.connection(ref.agentId);
    try {
      if (item.type === 'terminal') await conn.cancelTerminal(ref.sessionId, item.terminalId);
      else if (item.type === 'tool_call') await conn.cancelToolCall(ref.sessionId, item.toolCallId);
    } catch (err) {
      throw new Error(`The agent refused to cancel ${what}: ${err instanceof Error ? err.message : String(err)}. It keeps running; Show Log has details.`);
    }
  }

  private connection(agentId: string) {
    const sup = this.agents.get(agentId);
    const conn = sup?.connection;
    if (!sup || !conn) throw new Error(`${sup?.def.name ?? 'The agent'} is not running, so nothing can be cancelled. Its sessions are kept read-only.`);
    return conn;
  }
}

// The agent ids of sessions that no agent serves here: a replayed recording (`recording:<file
// name>`) and an imported session bundle (`import:<the agent id the file names>`). Running agents
// are `demo` and `agent:<name>` (src/agents/agentConfig.ts), so no file can name a running agent's
// session: what a file says lands in a read-only copy of its own, never started, never reverted.
// Free of `vscode`.

/** The agent id prefix of a replayed recording (`recording:<file name>`). */
export const REPLAY_AGENT_PREFIX = 'recording:';

/** The agent id prefix of imported sessions (`import:<agent id>`). */
export const IMPORT_AGENT_PREFIX = 'import:';

export function isImportedAgent(agentId: string): boolean {
  return agentId.startsWith(IMPORT_AGENT_PREFIX);
}

export function isReplayAgent(agentId: string): boolean {
  return agentId.startsWith(REPLAY_AGENT_PREFIX);
}

// The agent, session and background-row commands, one bundle loaded the first time one of them
// runs (dist/session-commands.js; their ids are registered at activation by lazyCommands.ts).
import { BackgroundActions } from '../app/backgroundActions';
import { agentCommands, type AgentCommandDeps } from './agentCommands';
import { backgroundCommands } from './backgroundCommands';
import type { CommandTable, IdsOf, SESSION_COMMANDS } from './lazyCommands';

export interface SessionCommandDeps extends AgentCommandDeps {
  /** The agents whose connections Cancel Subagent and Cancel Background Work reach. */
  readonly agents: ConstructorParameters<typeof BackgroundActions>[0];
}

/** The handler of each of SESSION_COMMANDS. */
export function sessionCommands(deps: SessionCommandDeps): CommandTable<IdsOf<typeof SESSION_COMMANDS>> {
  return { ...agentCommands(deps), ...backgroundCommands(new BackgroundActions(deps.agents, deps.store), deps.logs) };
}

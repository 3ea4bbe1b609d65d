// What the agent supervisor needs from its host (the AgentManager in production, a test host in
// plain Node), and what it reports back: its status and the sessions it attaches and detaches.
import type { AcpConnection, AgentStatus, CancelToken, ClientServices, ConnectOptions, ProtocolLogger } from '../protocol/api';
import type { PermissionOutcome, PermissionRequest, SessionEvent } from '../protocol/domain';
import type { ElicitationRequest, ElicitationResponse } from '../protocol/elicitation';
import type { IDisposable } from '../common/lifecycle';
import type { L10n } from '../common/l10n';
import type { MessageStream } from '../protocol/transport/messageStream';
import type { AgentEndpoint } from './agentEndpoint';
import type { AgentDefinition } from './agentConfig';

/** What the supervisor reports about itself and the sessions it serves. */
export type LifecycleEvent =
  | { kind: 'status'; status: AgentStatus; detail?: string; protocolVersion?: 1 | 2 }
  /** Opened or resumed on the running agent. */
  | { kind: 'session_attached'; sessionId: string; cwd: string }
  /**
   * No longer served (agent stopped or crashed, session closed, resume failed). `ended`: it will
   * not be served again on its own (why, for people: "could not be resumed").
   */
  | { kind: 'session_detached'; sessionId: string; ended?: string; endedBy?: 'not_resumed' | 'cannot_resume' }
  | { kind: 'session_deleted'; sessionId: string };

export interface SupervisorHost {
  /**
   * Opens a new run of the agent (a process for a definition with a `command`; see
   * agentEndpoint.ts). Called for every start and restart, after `assertMayStart`.
   */
  openEndpoint(def: AgentDefinition): AgentEndpoint;
  connect(stream: MessageStream, options: ConnectOptions): Promise<AcpConnection>;
  /** Throws (with a person-readable reason) when no agent may be started, e.g. an untrusted workspace. */
  assertMayStart(): void;
  connectOptions(def: AgentDefinition): Omit<ConnectOptions, 'handlers' | 'logger' | 'protocol'>;
  services(agentId: string): ClientServices;
  logger(def: AgentDefinition): ProtocolLogger;
  /** Every session event of this agent, in arrival order. */
  onEvent(agentId: string, e: SessionEvent): void;
  lifecycle(agentId: string, e: LifecycleEvent): void;
  requestPermission(agentId: string, req: PermissionRequest, token: CancelToken): Promise<PermissionOutcome>;
  /** Puts an elicitation to the user (absent: elicitation is not advertised). */
  elicit?(agentId: string, req: ElicitationRequest, token: CancelToken): Promise<ElicitationResponse>;
  /** The agent finished a URL elicitation (`elicitation/complete`). */
  elicitationComplete?(agentId: string, elicitationId: string): void;
  /**
   * A failure a person must hear about (the host offers Show Log / Restart). `restarting`: the
   * agent is being restarted on its own (the host withdraws the notice once it is back).
   */
  report(agentId: string, message: string, severity: 'error' | 'warning' | 'info', kind?: 'restarting'): void;
  now(): number;
  /** Words the sentences people read (`vscode.l10n` in the product; English without). */
  readonly l10n?: L10n;
  /** Runs `fn` after `ms` (tests may run it at once); disposing cancels it. */
  schedule(fn: () => void, ms: number): IDisposable;
}

// For the agent supervisor: speaks ACP over a freshly opened agent endpoint (connect() with the
// host's options and client services, every agent → client call guarded by the session gate), and
// words how an endpoint ended as the sentences people read. Knows endpoints only through
// agentEndpoint.ts (no process, exit code or socket here). Free of `vscode`.
import { english, type L10n } from '../common/l10n';
import type { AcpConnection, ConnectOptions } from '../protocol/api';
import type { SessionEvent } from '../protocol/domain';
import { ConnectionClosedError, InitializeTimeoutError } from '../protocol/connectionErrors';
import type { AgentEndpoint, EndpointExit } from './agentEndpoint';
import type { AgentDefinition } from './agentConfig';
import { redactText } from './redaction';
import type { SessionGate } from './sessionGate';
import type { SupervisorHost } from './supervisorHost';

export interface EndpointConnectDeps {
  readonly host: SupervisorHost;
  readonly def: AgentDefinition;
  /** Guards permissions, elicitations and client services: only sessions it allows are served. */
  readonly gate: SessionGate;
  /** Every session event of the connection, in order. */
  onEvent(e: SessionEvent): void;
}

/**
 * Connects over `endpoint.stream`. An endpoint that ends before `initialize` is answered rejects
 * with how it ended ("<Name> exited with code 3 during initialize. Last output: …"); one whose
 * stream closed but that runs on is stopped.
 */
export function connectEndpoint(endpoint: AgentEndpoint, deps: EndpointConnectDeps): Promise<AcpConnection> {
  const { host, def, gate } = deps;
  const l10n = host.l10n ?? english;
  const options: ConnectOptions = {
    ...host.connectOptions(def),
    protocol: def.protocol,
    logger: host.logger(def),
    handlers: {
      ...gate.guard(host.services(def.id)),
      onEvent: (e) => deps.onEvent(e),
      // Never put to the user for a session this agent did not open or resume here.
      requestPermission: (req, token) => (gate.has(req.sessionId) ? host.requestPermission(def.id, req, token) : gate.refuse(req.sessionId)),
    },
  };
  const { elicit, elicitationComplete } = host;
  if (elicit) {
    // The same rule for session-scoped elicitations; request-scoped ones belong to this connection.
    options.handlers.elicit = (req, token) =>
      req.scope.type === 'session' && !gate.has(req.scope.sessionId)
        ? gate.refuse(req.scope.sessionId).then(() => ({ action: 'cancel' as const }))
        : elicit.call(host, def.id, req, token);
    options.handlers.onElicitationComplete = (id) => elicitationComplete?.call(host, def.id, id);
  }
  const endedError = (exit: EndpointExit): Error =>
    Object.assign(
      new Error(
        exit.failedToOpen
          ? l10n.t('{0} {1}.{2}', def.name, exit.description, exit.detail)
          : l10n.t('{0} {1} during initialize.{2}', def.name, exit.description, exit.detail),
      ),
      exit.permanent ? { permanent: true } : {},
    );
  // The initialize timeout starts once the transport is connected (a remote host's confirmation
  // and handshake are not the agent's time).
  const connecting = (endpoint.connected ?? Promise.resolve())
    .then(() => host.connect(endpoint.stream, options))
    .catch(async (err: unknown) => {
      if (err instanceof InitializeTimeoutError) throw new Error(initializeTimeoutSentence(def, err.timeoutMs, l10n));
      if (!(err instanceof ConnectionClosedError)) throw masked(err);
      // The stream closes before the end is seen: say how it ended (code, last output), not "connection closed".
      void endpoint.stop(500); // one that closed its stream but runs on is stopped
      throw endedError(await endpoint.closed);
    });
  return Promise.race([
    connecting,
    endpoint.closed.then((exit) => {
      throw endedError(exit);
    }),
  ]);
}

/** The start failed for a reason a retry cannot cure (EndpointExit.permanent). */
export function isPermanentFailure(err: unknown): boolean {
  return err instanceof Error && (err as { permanent?: unknown }).permanent === true;
}

/** An agent's error reply may echo a key it was given: its message masked as the logs are, its kind and code kept. */
function masked(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(redactText(String(err)));
  err.message = redactText(err.message);
  return err;
}

/** An agent that never answered `initialize`: which one, the bound (a setting), what to check. */
function initializeTimeoutSentence(def: AgentDefinition, ms: number, l10n: L10n): string {
  const seconds = Math.round(ms / 100) / 10;
  if (def.remote) {
    const u = new URL(def.remote.url);
    return l10n.t(
      '{0} did not answer "initialize" within {1} s (acp.initializeTimeoutSeconds): the server at {2} accepted the connection, but no ACP agent answered. Check the path in the agent\'s "url" and that the server runs an ACP agent; a slow start needs a larger acp.initializeTimeoutSeconds.',
      def.name,
      seconds,
      `${u.protocol}//${u.host}`,
    );
  }
  return l10n.t(
    '{0} did not answer "initialize" within {1} s (acp.initializeTimeoutSeconds). Is it an ACP agent, and does it start correctly? A slow start needs a larger acp.initializeTimeoutSeconds.',
    def.name,
    seconds,
  );
}

/** The sentences for an endpoint that ended while the agent ran. */
export function endedWhileRunning(name: string, exit: EndpointExit, duringTurn: boolean, l10n: L10n = english): { lastError: string; turnNotice: string } {
  return {
    lastError: duringTurn
      ? l10n.t('{0} {1} during a turn.{2}', name, exit.description, exit.detail)
      : l10n.t('{0} {1} while idle.{2}', name, exit.description, exit.detail),
    turnNotice: l10n.t('{0} {1}; the turn was interrupted.', name, exit.description),
  };
}

/** How long an ended endpoint's last lines may take to be handled before its end is. */
const DRAIN_MS = 2000;

/**
 * Resolves once `conn` has handled everything read before its stream ended (its close), or after
 * DRAIN_MS if the stream never ends; at once without a connection.
 */
export function drained(conn: AcpConnection | undefined): Promise<void> {
  if (!conn) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, DRAIN_MS);
    conn.onClose(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

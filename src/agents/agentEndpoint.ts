// Where an agent runs, seen from its supervisor: a MessageStream to speak ACP over, a promise of how
// it ended, and ways to end it. The supervisor (supervisor.ts) drives every endpoint the same way
// (connect, crash → restart, stop) and knows nothing of processes, exit codes or sockets; the
// AgentManager picks the endpoint for a definition. Implementations: processEndpoint.ts (a local
// child process over stdio), wsEndpoint.ts (a remote agent over a WebSocket), httpEndpoint.ts (over streamable HTTP). A new transport (a socket, an agent in a worktree) is one module
// implementing AgentEndpoint plus a branch on the definition in the manager.
// Free of `vscode`.
import type { MessageStream } from '../protocol/transport/messageStream';

/** How an endpoint ended, for people. */
export interface EndpointExit {
  /**
   * The predicate of a sentence whose subject is the agent's name: "exited with code 1", "was
   * killed (SIGKILL)", "could not start: the command "x" was not found", "lost its connection".
   */
  readonly description: string;
  /** Appended to a message, with its leading space (" Last output: a | b"); "" when nothing. */
  readonly detail: string;
  /** It never opened (the program did not start, the host refused the connection). */
  readonly failedToOpen?: boolean;
  /**
   * Trying again cannot help until the user changes something (the server refused the
   * credentials, a secret is missing, the host was declined): no restart loop, said at once.
   */
  readonly permanent?: boolean;
}

/**
 * One run of an agent. It is opening (or open) from the moment it is made: the stream may be
 * written at once (a transport that connects asynchronously buffers until then, or ends with
 * `failedToOpen`). `closed` resolves once, when the agent is gone for whatever reason (crash,
 * stop, kill, a dropped connection); it never rejects.
 */
export interface AgentEndpoint {
  readonly stream: MessageStream;
  readonly closed: Promise<EndpointExit>;
  /**
   * Resolves once the transport is connected (a remote agent: after its host confirmation and its
   * handshake), so the `initialize` timeout does not count a person reading a dialog; never
   * resolves for one that fails to open (`closed` says how). Absent: connected at once (a process).
   */
  readonly connected?: Promise<void>;
  /** Ends it gracefully (ends the stream, then waits up to `graceMs` before forcing). Resolves once closed. */
  stop(graceMs?: number): Promise<unknown>;
  /** Ends it now (extension deactivation). */
  kill(): void;
}

// How a connection can fail before or while it speaks, free of vscode-jsonrpc: the connection
// itself is a bundle loaded when the first agent starts (dist/protocol.js), and the code that
// reads these errors is not. Each class is branded (src/common/brand.ts), so `instanceof` holds for
// an error made by either bundle.
import { hasBrand } from '../common/brand';

const CLOSED: unique symbol = Symbol.for('acp-plans.ConnectionClosedError');
const INIT_TIMEOUT: unique symbol = Symbol.for('acp-plans.InitializeTimeoutError');
const INCOMPATIBLE: unique symbol = Symbol.for('acp-plans.IncompatibleAgentError');

/** The connection closed (pipe ended, process exited, or disposed) before the answer came. */
export class ConnectionClosedError extends Error {
  override readonly name = 'ConnectionClosedError';
  readonly [CLOSED] = true;
  constructor(
    message = 'The connection to the agent is closed.',
    readonly method?: string,
  ) {
    super(method ? `${message} (${method})` : message);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, CLOSED);
  }
}

/** The agent speaks no protocol version this client can use. `message` is user-facing. */
export class IncompatibleAgentError extends Error {
  override readonly name = 'IncompatibleAgentError';
  readonly [INCOMPATIBLE] = true;
  constructor(
    message: string,
    /** What the agent answered: its `protocolVersion`, or its `supported` list on -32022. */
    readonly answered: unknown,
    /** Technical detail for the log (a shape error, the raw error). */
    readonly detail?: string,
  ) {
    super(message);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, INCOMPATIBLE);
  }
}

/** `initialize` got no answer in time. */
export class InitializeTimeoutError extends Error {
  override readonly name = 'InitializeTimeoutError';
  readonly [INIT_TIMEOUT] = true;
  constructor(readonly timeoutMs: number) {
    super(`The agent did not answer "initialize" within ${formatSeconds(timeoutMs)}. Is it an ACP agent, and does it start correctly?`);
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, INIT_TIMEOUT);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

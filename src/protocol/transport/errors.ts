// Errors of the JSON-RPC layer, independent of the ACP version.
import { ConnectionError, ResponseError } from 'vscode-jsonrpc/node';

/** JSON-RPC and ACP error codes (WIRE.md §1). */
export const ErrorCodes = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** A request cancelled with `$/cancel_request`. */
  RequestCancelled: -32800,
  AuthRequired: -32000,
  ResourceNotFound: -32002,
  /** Later v2 draft: `data: {requested, supported: number[]}`. */
  UnsupportedProtocolVersion: -32022,
} as const;

// vscode-jsonrpc's own codes for a connection that went away (never sent on the wire).
const MESSAGE_WRITE_ERROR = -32099;
const PENDING_RESPONSE_REJECTED = -32097;
const CONNECTION_INACTIVE = -32096;

/** The connection closed (pipe ended, process exited, or disposed) before the answer came. */
export class ConnectionClosedError extends Error {
  override readonly name = 'ConnectionClosedError';
  constructor(
    message = 'The connection to the agent is closed.',
    readonly method?: string,
  ) {
    super(method ? `${message} (${method})` : message);
  }
}

/** The agent answered a request with a JSON-RPC error. */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** The method of the request that failed. */
    readonly method?: string,
  ) {
    super(message);
  }
}

/** The agent answered `auth_required` (-32000): the user must sign in first. */
export function isAuthRequired(err: unknown): err is RpcError {
  return err instanceof RpcError && err.code === ErrorCodes.AuthRequired;
}

/** Maps what vscode-jsonrpc rejects a request with to our error types. */
export function toRpcFailure(err: unknown, method: string): Error {
  if (err instanceof ResponseError) {
    const code = err.code;
    if (code === PENDING_RESPONSE_REJECTED || code === CONNECTION_INACTIVE || code === MESSAGE_WRITE_ERROR) {
      return new ConnectionClosedError(undefined, method);
    }
    return new RpcError(code, err.message, err.data, method);
  }
  if (err instanceof ConnectionError) return new ConnectionClosedError(undefined, method);
  if (err instanceof Error) return err;
  return new Error(String(err));
}

/** An error to throw from a request handler so the agent gets exactly this code and message. */
export function responseError(code: number, message: string, data?: unknown): ResponseError<unknown> {
  return new ResponseError(code, message, data);
}

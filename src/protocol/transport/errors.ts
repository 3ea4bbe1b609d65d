// Errors of the JSON-RPC layer, independent of the ACP version.
import { ConnectionError, ResponseError } from 'vscode-jsonrpc/node';
import { RpcError } from './rpcError';
import { ConnectionClosedError } from '../connectionErrors';

export { ConnectionClosedError } from '../connectionErrors';

export { ErrorCodes, RpcError, isAuthRequired } from './rpcError';

// vscode-jsonrpc's own codes for a connection that went away (never sent on the wire).
const MESSAGE_WRITE_ERROR = -32099;
const PENDING_RESPONSE_REJECTED = -32097;
const CONNECTION_INACTIVE = -32096;

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

// JSON-RPC error codes and RpcError, free of vscode-jsonrpc, so a part of the extension loaded on
// first use (the client services: terminal/* answers with these codes) can throw one without
// bundling the connection library again. RpcError is branded (src/common/brand.ts): the connection
// answers an RpcError from such a part with its own code and data, as it does for its own.
import { hasBrand } from '../../common/brand';

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

const RPC_ERROR: unique symbol = Symbol.for('acp-plans.RpcError');

/** The agent answered a request with a JSON-RPC error (or a handler answers the agent with one). */
export class RpcError extends Error {
  override readonly name = 'RpcError';
  readonly [RPC_ERROR] = true;
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
    /** The method of the request that failed. */
    readonly method?: string,
  ) {
    super(message);
  }

  /** An RpcError made by any bundle of the extension. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, RPC_ERROR);
  }
}

/** The agent answered `auth_required` (-32000): the user must sign in first. */
export function isAuthRequired(err: unknown): err is RpcError {
  return err instanceof RpcError && err.code === ErrorCodes.AuthRequired;
}

// ACP cancels a request with `$/cancel_request {requestId}` (both versions, WIRE.md §1), where
// LSP uses `$/cancelRequest {id}`. vscode-jsonrpc lets a strategy choose what is *sent*; what it
// *receives* is fixed to the LSP name inside the connection. So:
//   - sending: `acpCancellationStrategy.sender` writes `$/cancel_request {requestId}`;
//   - receiving: the NDJSON reader hands an incoming `$/cancel_request` to the connection under
//     the LSP name (`toLibraryCancel`), so the library's own bookkeeping cancels the token of the
//     running handler (or remembers the id when the request is still queued).
import {
  CancellationTokenSource, type CancellationStrategy, type Message, type MessageConnection,
  type NotificationMessage,
} from 'vscode-jsonrpc/node';

export const CANCEL_REQUEST_METHOD = '$/cancel_request';
/** The cancellation method vscode-jsonrpc understands (LSP's). */
export const LIBRARY_CANCEL_METHOD = '$/cancelRequest';

export const acpCancellationStrategy: CancellationStrategy = {
  receiver: {
    kind: 'id',
    createCancellationTokenSource: () => new CancellationTokenSource(),
  },
  sender: {
    sendCancellation(conn: MessageConnection, id: number | string): Promise<void> {
      try {
        return conn.sendNotification(CANCEL_REQUEST_METHOD, { requestId: id });
      } catch (err) {
        // The connection is closed: there is nobody left to tell.
        return Promise.reject(err instanceof Error ? err : new Error(String(err)));
      }
    },
    cleanup(): void { /* no per-request state */ },
  },
};

/**
 * An incoming ACP `$/cancel_request` as the message vscode-jsonrpc understands; any other message
 * unchanged. A malformed cancel (no usable `requestId`) is returned unchanged and ends up as an
 * ignored notification.
 */
export function toLibraryCancel(msg: Message): Message {
  const n = msg as NotificationMessage;
  if (n.method !== CANCEL_REQUEST_METHOD) return msg;
  const params = n.params as { requestId?: unknown } | undefined;
  const id = params?.requestId;
  if (typeof id !== 'string' && typeof id !== 'number') return msg;
  const translated: NotificationMessage = { jsonrpc: '2.0', method: LIBRARY_CANCEL_METHOD, params: { id } };
  return translated;
}

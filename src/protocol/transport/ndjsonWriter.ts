// Writes newline-delimited JSON-RPC to the agent's stdin: one `JSON.stringify` line per message
// (JSON.stringify escapes control characters, so a message never contains a raw newline). Writes
// go to the stream in call order; each promise settles when its bytes were handed to the OS.
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-jsonrpc/node';
import type { ProtocolLogger } from '../api';

export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private errorCount = 0;
  private closed = false;
  private readonly onStreamError = (err: unknown): void => {
    // Without a listener an EPIPE on the child's stdin would crash the host process.
    this.errorCount++;
    this.fireError(err, undefined, this.errorCount);
  };
  private readonly onStreamClose = (): void => {
    this.closed = true;
  };

  constructor(
    private readonly writable: NodeJS.WritableStream,
    private readonly logger?: ProtocolLogger,
  ) {
    super();
    writable.on('error', this.onStreamError);
    writable.on('close', this.onStreamClose);
  }

  write(msg: Message): Promise<void> {
    this.logger?.wire?.('send', msg);
    if (this.closed) return Promise.reject(new Error("The agent's input stream is closed."));
    let line: string;
    try {
      line = `${JSON.stringify(msg)}\n`;
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    return new Promise<void>((resolve, reject) => {
      try {
        this.writable.write(line, 'utf8', (err?: Error | null) => {
          if (err) {
            this.errorCount++;
            this.fireError(err, msg, this.errorCount);
            reject(err);
          } else {
            resolve();
          }
        });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
      }
    });
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.writable.end();
    } catch {
      // already destroyed
    }
  }
}

// What the extension host and the spawn helper process (worker.ts) say to each other. The host asks
// for a run; the worker starts the process, streams its output back as it comes and says when it
// closed (or could not start). The host may stop a run at any time. No `vscode`.

export interface RunRequest {
  readonly kind: 'run';
  readonly id: number;
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Written to standard input, which is then closed (empty: closed at once). */
  readonly input?: Uint8Array | string;
}

export interface KillRequest {
  readonly kind: 'kill';
  readonly id: number;
}

export type HostMessage = RunRequest | KillRequest;

export type WorkerMessage =
  | { readonly kind: 'stdout' | 'stderr'; readonly id: number; readonly chunk: Uint8Array }
  /** The process could not be started (errno code such as ENOENT, and the message). */
  | { readonly kind: 'error'; readonly id: number; readonly code: string | undefined; readonly message: string }
  | { readonly kind: 'close'; readonly id: number; readonly code: number | null; readonly signal: string | null };

// What the extension host and the spawn helper process (helper.ts) say to each other. The host asks
// for a run; the helper starts the process, streams its output back as it comes and says when it
// closed (or could not start). The host may stop a run at any time. No `vscode`.

/** A process to run: what to start, where, and what it reads. */
export interface ProcessRun {
  readonly file: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Written to standard input, which is then closed (empty: closed at once). */
  readonly input?: Uint8Array | string;
}

export type RunRequest = ProcessRun & { readonly kind: 'run'; readonly id: number };

export interface KillRequest {
  readonly kind: 'kill';
  readonly id: number;
}

export type HostMessage = RunRequest | KillRequest;

export type HelperMessage =
  | { readonly kind: 'stdout' | 'stderr'; readonly id: number; readonly chunk: Uint8Array }
  /** The process could not be started (errno code such as ENOENT, and the message). */
  | { readonly kind: 'error'; readonly id: number; readonly code: string | undefined; readonly message: string }
  | { readonly kind: 'close'; readonly id: number; readonly code: number | null; readonly signal: string | null };

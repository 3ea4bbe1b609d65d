// The two ways checkpoints fail: git cannot be run at all (GitMissingError: checkpoints are off, the
// caller falls back to what it saw on the wire), or one operation failed (CheckpointError). Each
// carries its reason as data (a code and its values), which the views word for people
// (src/ui/checkpointWords.ts); the message is English, for logs. Both are branded
// (src/common/brand.ts): they are made in the checkpoints bundle and recognised in the extension's.
import { hasBrand } from '../common/brand';

/** Why a checkpoint operation failed. */
export type CheckpointReason =
  /** git could not be run (missing, not executable): checkpoints are off. */
  | { readonly code: 'git-missing'; readonly data: { readonly git: string; readonly errno: string } }
  | { readonly code: 'git-cannot-start'; readonly data: { readonly git: string; readonly detail: string } }
  /** git ran and failed: its exit code (null: a signal ended it) and the first line it printed on standard error. */
  | {
      readonly code: 'git-failed';
      readonly data: { readonly command: string; readonly exitCode: number | null; readonly signal: string | null; readonly stderr: string };
    }
  | { readonly code: 'git-timeout'; readonly data: { readonly command: string; readonly seconds: number } }
  | { readonly code: 'git-output-over'; readonly data: { readonly command: string; readonly maxBytes: number } }
  /** The process that starts git went away under the run; the next run starts another. */
  | { readonly code: 'git-helper-lost'; readonly data: { readonly command: string; readonly detail: string } }
  | { readonly code: 'closed'; readonly data: Readonly<Record<string, never>> }
  | { readonly code: 'store-overlaps'; readonly data: { readonly gitDir: string; readonly workTree: string } }
  | { readonly code: 'too-many-files'; readonly data: { readonly folder: string; readonly maxFiles: number } }
  /** A folder of the workspace folder `folder` became a symbolic link (`link`, relative): the `files` checkpointed beyond it are no longer. */
  | { readonly code: 'beyond-link'; readonly data: { readonly folder: string; readonly link: string; readonly files: number } }
  | { readonly code: 'not-an-id'; readonly data: { readonly id: string } }
  | { readonly code: 'not-stored'; readonly data: { readonly id: string } }
  | { readonly code: 'outside-folder'; readonly data: { readonly path: string } }
  | { readonly code: 'not-a-tree-id'; readonly data: { readonly id: string } }
  | { readonly code: 'write-failed'; readonly data: { readonly what: 'commit' | 'ref'; readonly detail: string } }
  | { readonly code: 'merge-failed'; readonly data: { readonly detail: string } }
  /** Anything else (a file system error): its message. */
  | { readonly code: 'unexpected'; readonly data: { readonly detail: string } };

export type CheckpointReasonCode = CheckpointReason['code'];

const CHECKPOINT_ERROR: unique symbol = Symbol.for('acp-plans.CheckpointError');
const GIT_MISSING_ERROR: unique symbol = Symbol.for('acp-plans.GitMissingError');

/** A checkpoint operation failed; `reason` says why. */
export class CheckpointError extends Error {
  override readonly name: string = 'CheckpointError';
  readonly [CHECKPOINT_ERROR] = true;
  constructor(readonly reason: CheckpointReason) {
    super(checkpointMessage(reason));
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, CHECKPOINT_ERROR);
  }
}

/** git could not be run (missing, not executable): checkpoints are off. */
export class GitMissingError extends CheckpointError {
  override readonly name = 'GitMissingError';
  readonly [GIT_MISSING_ERROR] = true;
  constructor(data: { readonly git: string; readonly errno: string }) {
    super({ code: 'git-missing', data });
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, GIT_MISSING_ERROR);
  }
}

/** The reason of a failure: a CheckpointError's own, 'unexpected' with the message for anything else. */
export function checkpointReason(e: unknown): CheckpointReason {
  if (e instanceof CheckpointError) return e.reason;
  return { code: 'unexpected', data: { detail: e instanceof Error ? e.message : String(e) } };
}

/** The English sentence of a reason (logs; people read src/ui/checkpointWords.ts). */
export function checkpointMessage(r: CheckpointReason): string {
  switch (r.code) {
    case 'git-missing':
      return `git was not found (${r.data.git}: ${r.data.errno}): checkpoints are off; install git (or put it on the PATH) to have the workspace checkpointed.`;
    case 'git-cannot-start':
      return `git could not be started (${r.data.git}): ${r.data.detail}.`;
    case 'git-failed': {
      const how = r.data.exitCode === null ? `was killed (${r.data.signal ?? 'signal'})` : `exited with code ${r.data.exitCode}`;
      return `${r.data.command} ${how}${r.data.stderr ? `: ${r.data.stderr}` : ''}.`;
    }
    case 'git-timeout':
      return `${r.data.command} took longer than ${r.data.seconds} s and was stopped.`;
    case 'git-output-over':
      return `${r.data.command} printed more than ${r.data.maxBytes.toLocaleString('en-US')} bytes and was stopped.`;
    case 'git-helper-lost':
      return `${r.data.command} could not finish: ${r.data.detail}.`;
    case 'closed':
      return 'Checkpoints were closed.';
    case 'store-overlaps':
      return `The checkpoint store ${r.data.gitDir} and the folder ${r.data.workTree} overlap; checkpoints need a store outside the folder.`;
    case 'too-many-files':
      return `${r.data.folder} holds more than ${r.data.maxFiles.toLocaleString('en-US')} files that .gitignore does not exclude, so it is not checkpointed; ignore generated folders (node_modules, build output) in .gitignore.`;
    case 'beyond-link':
      return `${r.data.link} in ${r.data.folder} is a symbolic link now: the ${r.data.files} file(s) beyond it are no longer checkpointed (the link itself is; what it leads to is never followed).`;
    case 'not-an-id':
      return `"${r.data.id}" is not a checkpoint id.`;
    case 'not-stored':
      return `The checkpoint ${r.data.id} is no longer stored (pruned, or its session's history was deleted).`;
    case 'outside-folder':
      return `"${r.data.path}" is not a path inside the workspace folder.`;
    case 'not-a-tree-id':
      return `"${r.data.id}" is not a SHA-1 tree id.`;
    case 'write-failed':
      return `The checkpoint's ${r.data.what} could not be written: ${r.data.detail}.`;
    case 'merge-failed':
      return `The three-way merge failed: ${r.data.detail}.`;
    case 'unexpected':
      return r.data.detail;
  }
  return r satisfies never;
}

// The decisions behind fs/read_text_file and fs/write_text_file, without the I/O: where a path
// may be read or written (pathPolicy) and whether a write needs the user's consent first
// (executesLater). Plain Node (no vscode); fsService does the I/O through VS Code.
//
// Contract of the injected functions:
// - `roots(agentId, sessionId)`: the folders the agent's files must lie in (the workspace folders
//   today). Called for every request, so a folder added or removed counts at once.
// - `confirm(req)`: asks the user whether the agent may write a file that runs code later;
//   resolves true only on the user's explicit yes (or a rule the user made for it), false for
//   no, dismissal, cancellation or an error. It is called at most once per write, after the path
//   passed every other check, and nothing is written while it is pending.

import { AccessDeniedError, printable, resolveInRoots, type ResolvedPath } from './pathPolicy';
import { lazyModule } from '../common/lazy';
import type { L10n } from '../common/l10n';
import type * as Later from './executesLater';

export interface WriteConsentRequest {
  agentId: string;
  sessionId: string;
  /** The path the agent asked for (`.`/`..` resolved). */
  path: string;
  /** Where the write lands when it differs (through a symbolic link), else undefined. */
  realPath?: string;
  /** Why this file runs code later, for the question shown to the user (in `FileAccessOptions.l10n`'s words). */
  reason: string;
}

export interface FileAccessOptions {
  roots(agentId: string, sessionId: string): readonly string[];
  confirm(req: WriteConsentRequest): Promise<boolean>;
  /** The user's language for the question's reason (English by default); the agent's error stays English. */
  l10n?: L10n;
}

export class FileAccess {
  constructor(private readonly options: FileAccessOptions) {}

  /** Where to read `p` from; throws AccessDeniedError when it may not be read. */
  async forRead(agentId: string, sessionId: string, p: string): Promise<ResolvedPath> {
    return resolveInRoots(this.options.roots(agentId, sessionId), p, 'read');
  }

  /** Where to write `p` to, after the user's consent when it runs code later; throws AccessDeniedError otherwise. */
  async forWrite(agentId: string, sessionId: string, p: string): Promise<ResolvedPath> {
    const roots = this.options.roots(agentId, sessionId);
    const resolved = await resolveInRoots(roots, p, 'write');
    const reason = reasonFor(roots, resolved);
    if (reason === undefined) return resolved;
    let ok = false;
    try {
      ok = await this.options.confirm({
        agentId,
        sessionId,
        path: resolved.lexical,
        reason: this.options.l10n ? (reasonFor(roots, resolved, this.options.l10n) ?? reason) : reason,
        ...(resolved.real !== resolved.lexical ? { realPath: resolved.real } : {}),
      });
    } catch {
      ok = false;
    }
    if (!ok)
      throw new AccessDeniedError(
        `The user did not allow writing "${printable(resolved.lexical)}": ${reason}. Ask the user to make this change, or leave it out.`,
      );
    // The disk may have changed while the user was asked: check again (a second question is not asked).
    const again = await resolveInRoots(roots, p, 'write');
    if (again.real !== resolved.real)
      throw new AccessDeniedError(`Refused to write "${printable(resolved.lexical)}": the path changed on disk while the user was asked.`);
    return again;
  }
}

/** The table of files that run code later, the first time the agent writes a file. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (dist/executes-later.js)
const later = lazyModule('executes-later.js', () => require('./executesLater') as typeof Later);

/** The reason a write runs code later (English unless `l10n` is given), checking the path as written and where it lands. */
export function reasonFor(roots: readonly string[], r: ResolvedPath, l10n?: L10n): string | undefined {
  const { executesLater } = later();
  const asWritten = roots.map((root) => executesLater(root, r.lexical, l10n)).find((x) => x !== undefined);
  return asWritten ?? executesLater(r.root, r.real, l10n);
}

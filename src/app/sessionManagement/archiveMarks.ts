// Which sessions the user archived, per agent: the one owner of a session's archive state on this
// side, kept in the workspace's memento so an archived session stays folded under "Archived"
// after a reload (its title is the history's: a `session_info` event, recorded like any other).
// Free of `vscode`: the memento is a port.
import { Emitter } from '../../state/emitter';
import type { Event } from '../../protocol/api';

/** The part of a VS Code Memento this needs. */
export interface MarksMemento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

export const ARCHIVE_MARKS_KEY = 'acp.archivedSessions';
/** The most marks kept; the oldest go first (a workspace's memento is not a database). */
export const MAX_ARCHIVE_MARKS = 2000;

export interface ArchiveChange {
  agentId: string;
  sessionId: string;
  archived: boolean;
}

const keyOf = (agentId: string, sessionId: string): string => JSON.stringify([agentId, sessionId]);

export class ArchiveMarks {
  private readonly marks: Set<string>;
  private readonly _onDidChange = new Emitter<ArchiveChange>();
  readonly onDidChange: Event<ArchiveChange> = this._onDidChange.event;

  constructor(private readonly memento: MarksMemento) {
    const stored = memento.get<unknown>(ARCHIVE_MARKS_KEY);
    // Lenient in what was stored: anything but a list of [agentId, sessionId] pairs is skipped.
    const pairs = Array.isArray(stored)
      ? stored.filter((p): p is [string, string] => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'string'))
      : [];
    this.marks = new Set(pairs.map(([a, s]) => keyOf(a, s)));
  }

  isArchived(agentId: string, sessionId: string): boolean {
    return this.marks.has(keyOf(agentId, sessionId));
  }

  /** Marks (or unmarks) the session and saves; resolves once the memento has it. */
  async set(agentId: string, sessionId: string, archived: boolean): Promise<void> {
    const key = keyOf(agentId, sessionId);
    if (this.marks.has(key) === archived) return;
    if (archived) {
      this.marks.add(key);
      for (const old of this.marks) {
        if (this.marks.size <= MAX_ARCHIVE_MARKS) break;
        this.marks.delete(old);
      }
    } else this.marks.delete(key);
    this._onDidChange.fire({ agentId, sessionId, archived });
    await this.memento.update(
      ARCHIVE_MARKS_KEY,
      [...this.marks].map((k) => JSON.parse(k) as [string, string]),
    );
  }

  dispose(): void {
    this._onDidChange.dispose();
  }
}

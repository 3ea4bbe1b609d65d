// Which session and step a comment on lines of a file belongs to: the session that changed the file
// (the active one first, else the one that changed it last), and of its changes of that file the
// last one that touched those lines (else its last change of the file). Free of `vscode`.
import type { FileChange, Step, WorkStore } from '../../state/attribution/workStore';
import type { SessionKey, SessionStore } from '../../state/sessionStore';
import { lineMap, splitLines, type LineRange } from './anchor';
import type { ReviewStep } from './reviewModel';

export interface ReviewTarget extends SessionKey {
  readonly step?: ReviewStep;
}

/** The session that changed `file`: the preferred one when it did, else the latest to change it. */
export function sessionOfFile(work: WorkStore, store: SessionStore, file: string, prefer?: SessionKey): SessionKey | undefined {
  const changes = (k: SessionKey): FileChange[] => work.sessionChanges(k.agentId, k.sessionId).find((c) => c.path === file)?.all ?? [];
  if (prefer && changes(prefer).length) return prefer;
  let best: { key: SessionKey; t: number } | undefined;
  for (const s of store.sessions()) {
    const last = changes(s).at(-1);
    if (last && (!best || last.time > best.t)) best = { key: { agentId: s.agentId, sessionId: s.sessionId }, t: last.time };
  }
  return best?.key;
}

/** The step of the session whose change of `file` touched `range` (lines of the file after it). */
export function stepOfRange(work: WorkStore, key: SessionKey, file: string, range: LineRange, unplanned: string): ReviewStep | undefined {
  const all = work.sessionChanges(key.agentId, key.sessionId).find((c) => c.path === file)?.all ?? [];
  let hit: FileChange | undefined;
  for (let i = all.length - 1; i >= 0 && !hit; i--) if (touches(all[i]!, range)) hit = all[i];
  const owner = (hit ?? all.at(-1))?.owners[0];
  return owner ? stepRef(owner, unplanned) : undefined;
}

export function stepRef(s: Step, unplanned: string): ReviewStep {
  return { ...(s.planId !== undefined ? { planId: s.planId } : {}), key: s.key, label: s.planId === undefined ? unplanned : s.content };
}

/** Whether a change made (or changed) lines in `range` of its after text; unknown texts count as yes. */
function touches(c: FileChange, range: LineRange): boolean {
  if (c.after === undefined || c.before === undefined) return true;
  const a = c.before === null ? [] : splitLines(c.before);
  const b = splitLines(c.after);
  const made = new Uint8Array(b.length).fill(1);
  for (const j of lineMap(a, b)) if (j >= 0) made[j] = 0;
  for (let j = range.start; j <= range.end && j < b.length; j++) if (made[j]) return true;
  return false;
}

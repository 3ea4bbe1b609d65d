// Work the Demo Agent keeps running after a turn (the `subagents` and `background` scenarios):
// each session's `background` snapshot (sent on every state update of that session while it is
// set) and the cancel handlers the client can reach with `terminal/cancel`, `tool_call/cancel` and
// `session/cancel` on a child session. Process-wide, like the connection: one client at a time.

import type { JsonObject } from '../model';

export type CancelKind = 'terminal' | 'tool_call' | 'session';

const handlers = new Map<string, () => void>();
const snapshots = new Map<string, JsonObject[]>();

const key = (kind: CancelKind, sessionId: string, id: string): string => `${kind}\u0000${sessionId}\u0000${id}`;

/** Registers what cancelling this item does (replaces an earlier handler for it). */
export function onCancel(kind: CancelKind, sessionId: string, id: string, cancel: () => void): void {
  handlers.set(key(kind, sessionId, id), cancel);
}

/** Runs and forgets the item's cancel handler; false when nothing is cancellable under that name. */
export function cancelWork(kind: CancelKind, sessionId: string, id: string): boolean {
  const k = key(kind, sessionId, id);
  const cancel = handlers.get(k);
  if (!cancel) return false;
  handlers.delete(k);
  cancel();
  return true;
}

/** The session's background snapshot from now on (a copy is kept). */
export function setBackground(sessionId: string, items: JsonObject[]): void {
  snapshots.set(
    sessionId,
    items.map((i) => ({ ...i })),
  );
}

/** The session's background snapshot, or undefined when it never reported one. */
export function backgroundOf(sessionId: string): JsonObject[] | undefined {
  return snapshots.get(sessionId)?.map((i) => ({ ...i }));
}

/** Removes one item from the session's snapshot; returns the new snapshot. */
export function removeBackground(sessionId: string, match: (item: JsonObject) => boolean): JsonObject[] {
  const next = (snapshots.get(sessionId) ?? []).filter((i) => !match(i));
  snapshots.set(sessionId, next);
  return next.map((i) => ({ ...i }));
}

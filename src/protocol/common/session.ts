// Session results whose shape is the same in v1 and v2.
import * as z from 'zod/mini';
import type { ListSessionsParams, SessionListEntry } from '../api';
import type { AdapterCall } from '../adapter';
import type { JsonObject } from '../domain';
import { plainCall } from './calls';
import { anyObject, lenientArray, optStr, put, soft } from './zod';

/** Results with no fields (`{}`); `null` is accepted too. */
export const emptyResult = z.nullish(anyObject);

const sessionInfo = z.pipe(
  z.looseObject({ sessionId: z.string(), cwd: z.string(), title: optStr, updatedAt: optStr, archived: soft(z.nullable(z.boolean())) }),
  z.transform((w): SessionListEntry => {
    const s: SessionListEntry = { sessionId: w.sessionId, cwd: w.cwd };
    put(s, 'title', w.title);
    put(s, 'updatedAt', w.updatedAt);
    if (typeof w.archived === 'boolean') s.archived = w.archived;
    return s;
  }),
);
const listSessionsResult = z.looseObject({ sessions: lenientArray(sessionInfo), nextCursor: optStr });

/** `session/list` (same parameters and result in both versions; the `archived` filter only where the version has it). */
export function listSessionsCall(
  method: string,
  p?: ListSessionsParams,
  archiveFilter = false,
): AdapterCall<{ sessions: SessionListEntry[]; nextCursor?: string | null }> {
  const params: JsonObject = {};
  if (p?.cwd !== undefined) params.cwd = p.cwd;
  if (p?.cursor !== undefined) params.cursor = p.cursor;
  if (archiveFilter && p?.archived !== undefined) params.archived = p.archived;
  return plainCall(method, params, listSessionsResult, (r) =>
    r.nextCursor === undefined ? { sessions: r.sessions } : { sessions: r.sessions, nextCursor: r.nextCursor },
  );
}

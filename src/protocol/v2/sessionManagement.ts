// v2 session management (unstable, the later draft): `session/fork`, `session/archive` and
// `session/unarchive`, `session/set_title`, `session/status`. The connection sends each only where
// the agent advertised it (AgentCapabilities fork, archive, title, status); v1 has none of them.
import * as z from 'zod/mini';
import type { SessionManagementCodecs } from '../adapter';
import type { NewSessionParams, SessionSetup, SessionStatusInfo } from '../api';
import type { JsonObject } from '../domain';
import { plainCall } from '../common/calls';
import { soft } from '../common/zod';
import { V2_METHODS as M } from './methods';
import { emptyResult, newSessionResult } from './schema';

const titleResult = z.looseObject({ title: z.string() });
// An unknown status is `saved` to us, as the draft asks; a malformed state is no state.
const statusResult = z.looseObject({ status: z.string(), state: soft(z.nullable(z.looseObject({ state: z.string() }))) });

export function v2SessionManagement(
  setupParams: (p: NewSessionParams) => JsonObject,
  setup: (r: z.infer<typeof newSessionResult>) => SessionSetup,
): SessionManagementCodecs {
  return {
    fork: (p) => plainCall(M.sessionFork, { sessionId: p.sessionId, ...setupParams(p) }, newSessionResult, setup),
    archive: (sessionId, archived) => plainCall(archived ? M.sessionArchive : M.sessionUnarchive, { sessionId }, emptyResult, () => undefined),
    setTitle: (sessionId, title) => plainCall(M.sessionSetTitle, { sessionId, title }, titleResult, (r) => r.title),
    status: (sessionId) =>
      plainCall(M.sessionStatus, { sessionId }, statusResult, (r): SessionStatusInfo => {
        const info: SessionStatusInfo = { status: r.status };
        if (r.state) info.state = r.state.state;
        return info;
      }),
  };
}

// Folds tool_call events the way a transcript would (patch semantics per field), keyed by
// toolCallId in order of first appearance. Shared by the interop suite and the replay unit tests.
import type { SessionEvent } from '../../../src/protocol/domain';

export function foldToolCalls(events: SessionEvent[]): Map<string, Record<string, unknown>> {
  const calls = new Map<string, Record<string, unknown>>();
  for (const e of events) {
    if (e.kind !== 'tool_call') continue;
    const cur = calls.get(e.toolCallId) ?? {};
    for (const [k, v] of Object.entries(e.fields)) {
      if (v === undefined) continue;
      if (v === null) delete cur[k];
      else cur[k] = v;
    }
    calls.set(e.toolCallId, cur);
  }
  return calls;
}

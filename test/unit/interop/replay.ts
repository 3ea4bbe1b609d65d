// Replays a recording of a real agent (test/fixtures/recordings/*.ndjson, made by the interop
// suite, see README.md there) through a fresh version adapter: every agent → client
// `session/update` through `decodeUpdate`, every permission request through
// `decodePermissionRequest` (+ the events it implies), and our `session/prompt` call so the v1
// adapter synthesizes the turn's states. The events feed a PlanStore.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createAdapter, permissionEvents, type AdapterCall, type PromptResultValue } from '../../../src/protocol/adapter';
import type { ContentBlock, PermissionRequest, SessionEvent } from '../../../src/protocol/domain';
import { PlanStore } from '../../../src/state/planStore';
import { foldToolCalls } from '../../interop/support/foldToolCalls';

export const AGENT = 'replay';

interface Line {
  dir: 'send' | 'receive';
  msg: { id?: number | string | null; method?: string; params?: unknown; result?: unknown; error?: unknown };
}

export interface Replay {
  header: Record<string, unknown>;
  version: 1 | 2;
  sessionId: string;
  events: SessionEvent[];
  permissions: PermissionRequest[];
  store: PlanStore;
  /** Agent → client requests as received (method, id). */
  agentRequests: { method: string; id: number | string | null | undefined }[];
  toolCalls: Map<string, Record<string, unknown>>;
}

function fixturesDir(): string {
  let dir = __dirname;
  for (let i = 0; i < 8; i++) {
    const candidate = path.join(dir, 'test', 'fixtures', 'recordings');
    try {
      if (statSync(candidate).isDirectory()) return candidate;
    } catch {
      /* up */
    }
    dir = path.dirname(dir);
  }
  return path.join(process.cwd(), 'test', 'fixtures', 'recordings');
}

export function readRecording(name: string): { header: Record<string, unknown>; lines: Line[] } {
  const text = readFileSync(path.join(fixturesDir(), name), 'utf8');
  const [first, ...rest] = text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { header: first.recording as Record<string, unknown>, lines: rest as unknown as Line[] };
}

export function replay(name: string): Replay {
  const { header, lines } = readRecording(name);
  const initId = lines.find((l) => l.dir === 'send' && l.msg.method === 'initialize')?.msg.id;
  const initResult = lines.find((l) => l.dir === 'receive' && l.msg.id === initId && l.msg.result)?.msg.result as { protocolVersion: number; info?: unknown };
  // The negotiator's rule: v2 only with a v2-shaped answer.
  const version: 1 | 2 = initResult.protocolVersion === 2 && initResult.info ? 2 : 1;
  const adapter = createAdapter(version);
  adapter.parseInitializeResult(initResult);
  const store = new PlanStore();
  const events: SessionEvent[] = [];
  const permissions: PermissionRequest[] = [];
  const agentRequests: Replay['agentRequests'] = [];
  const prompts = new Map<number | string, AdapterCall<PromptResultValue>>();
  const emit = (es: SessionEvent[]) => {
    for (const e of es) {
      events.push(e);
      store.apply(AGENT, e);
    }
  };
  let sessionId = '';

  for (const { dir, msg } of lines) {
    if (dir === 'send' && msg.method === adapter.methods.sessionPrompt) {
      const p = msg.params as { sessionId: string; prompt: ContentBlock[] };
      const call = adapter.prompt(p.sessionId, p.prompt);
      prompts.set(msg.id as number | string, call);
      emit(call.eventsBefore);
    } else if (dir === 'receive' && msg.method === adapter.methods.sessionUpdate) {
      emit(adapter.decodeUpdate(msg.params));
    } else if (dir === 'receive' && msg.method && msg.id !== undefined) {
      agentRequests.push({ method: msg.method, id: msg.id });
      if (msg.method === adapter.methods.requestPermission) {
        const req = adapter.decodePermissionRequest(msg.params);
        permissions.push(req);
        emit(permissionEvents(req));
      }
    } else if (dir === 'receive' && !msg.method && msg.id != null) {
      const call = prompts.get(msg.id);
      if (call && msg.result !== undefined) emit(call.decode(msg.result).events);
      const sid = (msg.result as { sessionId?: unknown } | undefined)?.sessionId;
      if (typeof sid === 'string' && !sessionId) sessionId = sid;
    }
  }
  return { header, version, sessionId, events, permissions, store, agentRequests, toolCalls: foldToolCalls(events) };
}

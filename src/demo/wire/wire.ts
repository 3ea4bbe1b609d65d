// How the Demo Agent's neutral events become messages of the version it speaks.

import type { DemoEvent, HistoryRecord, JsonObject, PermissionAsk, PermissionOutcome, PlanEntry, ProtocolVersion, ToolState } from '../model';

/** What a wire needs to know about the session (state after the event was applied). */
export interface SessionView {
  readonly sessionId: string;
  tool(toolCallId: string): ToolState | undefined;
  /** Entries of every live `items` plan, in the order the plans were created. */
  itemsPlans(): PlanEntry[][];
}

export interface CommandInfo {
  name: string;
  description: string;
  hint?: string;
}

export interface ConfigOptionInfo {
  id: string;
  name: string;
  description: string;
  category: string;
  kind: 'select' | 'boolean';
  choices?: { value: string; name: string }[];
  value: string | boolean;
}

export interface Wire {
  readonly version: ProtocolVersion;
  /** `update` payloads of `session/update` for an event; `created`: the event created its tool call. */
  live(event: DemoEvent, view: SessionView, created: boolean): JsonObject[];
  /** `update` payloads replaying a session's history. */
  replay(records: readonly HistoryRecord[]): JsonObject[];
  permissionParams(sessionId: string, ask: PermissionAsk): JsonObject;
  availableCommands(commands: readonly CommandInfo[]): JsonObject[];
  configOptions(options: readonly ConfigOptionInfo[]): JsonObject[];
}

export function parseOutcome(result: unknown): PermissionOutcome {
  const outcome = (result as { outcome?: { outcome?: unknown; optionId?: unknown } } | null)?.outcome;
  if (outcome?.outcome === 'selected' && typeof outcome.optionId === 'string') return { outcome: 'selected', optionId: outcome.optionId };
  if (outcome?.outcome === 'cancelled') return { outcome: 'cancelled' };
  return { outcome: 'unknown', raw: result };
}

/** Merges consecutive text blocks, so a replayed message reads as one block per run of text. */
export function mergeText(blocks: readonly JsonObject[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const block of blocks) {
    const last = out[out.length - 1];
    if (last && last.type === 'text' && block.type === 'text' && Object.keys(block).length === 2 && Object.keys(last).length === 2) {
      out[out.length - 1] = { type: 'text', text: `${String(last.text)}${String(block.text)}` };
    } else {
      out.push(block);
    }
  }
  return out;
}

/** Plans of a history that are still live (not removed afterwards), in creation order. */
export function livePlanRecords(records: readonly HistoryRecord[]): HistoryRecord[] {
  const live: HistoryRecord[] = [];
  for (const r of records) {
    if (r.kind === 'plan') live.push(r);
    else if (r.kind === 'planRemoved') {
      const k = live.findIndex((p) => p.kind === 'plan' && p.plan.planId === r.planId);
      if (k >= 0) live.splice(k, 1);
    }
  }
  return live;
}

/** Copies only the defined fields of `source` listed in `keys`. */
export function pick(source: object, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) {
    const value = (source as JsonObject)[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A compaction's update or summary chunk: the same shape in v1 (unstable) and v2. */
export function compactionUpdate(event: Extract<DemoEvent, { kind: 'compaction' | 'compactionChunk' }>): JsonObject[] {
  if (event.kind === 'compactionChunk') {
    return [{ sessionUpdate: 'compaction_summary_chunk', compactionId: event.compactionId, content: { type: 'text', text: event.text } }];
  }
  return [{ sessionUpdate: 'compaction_update', ...pick(event, ['compactionId', 'status', 'summary', 'error', '_meta']) }];
}

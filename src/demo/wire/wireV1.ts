// ACP v1 rendering (schema v1, plus the v1-unstable `plan_update`/`plan_removed` when the client
// opted in with `clientCapabilities.plan`). v1 enums are closed: custom values are mapped.

import type { Block, DemoEvent, HistoryRecord, JsonObject, PermissionAsk, PlanContent, PlanEntry, ToolContent, ToolPatch } from '../model';
import { compactionUpdate, livePlanRecords, mergeText, pick, type CommandInfo, type ConfigOptionInfo, type SessionView, type Wire } from './wire';

const V1_BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

export interface V1Options {
  /** The client sent `clientCapabilities.plan` (opt-in for plan_update / plan_removed). */
  planUpdates: boolean;
  /** The client sent `clientCapabilities.session.compaction` (opt-in for compaction updates). */
  compaction?: boolean;
}

function entry(e: PlanEntry): JsonObject {
  // v1 knows pending | in_progress | completed only.
  const status = e.status === 'in_progress' || e.status === 'completed' ? e.status : 'pending';
  return { content: e.content, priority: e.priority, status, ...(e._meta ? { _meta: e._meta } : {}) };
}

function toolContent(c: ToolContent): JsonObject {
  switch (c.type) {
    case 'text':
      return { type: 'content', content: { type: 'text', text: c.text } };
    case 'diff':
      return { type: 'diff', path: c.path, oldText: c.oldText, newText: c.newText };
    case 'terminal':
      return { type: 'terminal', terminalId: c.terminalId };
  }
}

function toolFields(patch: ToolPatch): JsonObject {
  const out = pick(patch, ['toolCallId', 'title', 'kind', 'status', 'locations', 'rawInput', 'rawOutput', '_meta']);
  if (out.status === 'cancelled') out.status = 'failed';
  if (patch.content) out.content = patch.content.map(toolContent);
  return out;
}

export class WireV1 implements Wire {
  readonly version = 1 as const;

  constructor(private readonly options: V1Options) {}

  live(event: DemoEvent, view: SessionView, created: boolean): JsonObject[] {
    switch (event.kind) {
      case 'message':
        return event.role === 'user' ? [] : this.chunks(event.role, event.blocks);
      case 'plan':
        return this.plan(event.plan, view);
      case 'planRemoved':
        return this.options.planUpdates ? [{ sessionUpdate: 'plan_removed', planId: event.planId }] : [this.mergedPlan(view.itemsPlans())];
      case 'tool': {
        const state = view.tool(event.patch.toolCallId);
        if (created && state) return [{ sessionUpdate: 'tool_call', ...toolFields(state) }];
        return [{ sessionUpdate: 'tool_call_update', ...toolFields(event.patch) }];
      }
      case 'toolChunk': {
        const content = view.tool(event.toolCallId)?.content ?? [event.content];
        return [{ sessionUpdate: 'tool_call_update', toolCallId: event.toolCallId, content: content.map(toolContent) }];
      }
      case 'info':
        return [{ sessionUpdate: 'session_info_update', ...pick(event, ['title', 'updatedAt']) }];
      case 'usage':
        return [{ sessionUpdate: 'usage_update', ...pick(event, ['used', 'size', 'cost', '_meta']) }];
      case 'mode':
        return [{ sessionUpdate: 'current_mode_update', currentModeId: event.modeId }];
      case 'compaction':
      case 'compactionChunk':
        return this.options.compaction ? compactionUpdate(event) : [];
      case 'terminal':
      case 'terminalChunk':
      case 'state':
        return [];
    }
  }

  replay(records: readonly HistoryRecord[]): JsonObject[] {
    const out: JsonObject[] = [];
    for (const r of records) {
      switch (r.kind) {
        case 'message':
          out.push(...this.chunks(r.role, mergeText(r.blocks) as Block[]));
          break;
        case 'plan':
          if (this.options.planUpdates) out.push(...this.planUpdate(r.plan));
          break;
        case 'planRemoved':
          if (this.options.planUpdates) out.push({ sessionUpdate: 'plan_removed', planId: r.planId });
          break;
        case 'tool':
          out.push({ sessionUpdate: 'tool_call', ...toolFields(r.call) });
          break;
        case 'info':
          out.push({ sessionUpdate: 'session_info_update', ...pick(r, ['title', 'updatedAt']) });
          break;
        case 'usage':
          out.push({ sessionUpdate: 'usage_update', ...pick(r, ['used', 'size', 'cost', '_meta']) });
          break;
        case 'terminal':
          break;
      }
    }
    if (!this.options.planUpdates) {
      const items = livePlanRecords(records).flatMap((r) => (r.kind === 'plan' && r.plan.type === 'items' ? [r.plan.entries] : []));
      if (items.length > 0) out.push(this.mergedPlan(items));
    }
    return out;
  }

  permissionParams(sessionId: string, ask: PermissionAsk): JsonObject {
    if (!ask.toolCall) throw new Error('a v1 permission request needs a tool call');
    return { sessionId, toolCall: toolFields(ask.toolCall), options: ask.options };
  }

  availableCommands(commands: readonly CommandInfo[]): JsonObject[] {
    return commands.map((c) => ({ name: c.name, description: c.description, ...(c.hint ? { input: { hint: c.hint } } : {}) }));
  }

  configOptions(options: readonly ConfigOptionInfo[]): JsonObject[] {
    return options.map((o) => {
      const base = { id: o.id, name: o.name, description: o.description, category: o.category, type: o.kind, currentValue: o.value };
      return o.kind === 'select' ? { ...base, options: o.choices ?? [] } : base;
    });
  }

  private chunks(role: 'user' | 'agent' | 'thought', blocks: readonly Block[]): JsonObject[] {
    const sessionUpdate = role === 'user' ? 'user_message_chunk' : role === 'agent' ? 'agent_message_chunk' : 'agent_thought_chunk';
    // v1 message ids are optional: the demo leaves them out, as most v1 agents do.
    return blocks.filter((b) => V1_BLOCK_TYPES.has(b.type)).map((content) => ({ sessionUpdate, content }));
  }

  private plan(plan: PlanContent, view: SessionView): JsonObject[] {
    if (this.options.planUpdates) return this.planUpdate(plan);
    return plan.type === 'items' ? [this.mergedPlan(view.itemsPlans())] : [];
  }

  private planUpdate(plan: PlanContent): JsonObject[] {
    switch (plan.type) {
      case 'items':
        return [{ sessionUpdate: 'plan_update', plan: { type: 'items', planId: plan.planId, entries: plan.entries.map(entry) } }];
      case 'markdown':
      case 'file':
        return [{ sessionUpdate: 'plan_update', plan }];
      default:
        return []; // the v1-unstable plan union is closed: custom plan types cannot be sent
    }
  }

  /** Without the opt-in, v1 has one plan per session: every live item plan, concatenated. */
  private mergedPlan(plans: PlanEntry[][]): JsonObject {
    return { sessionUpdate: 'plan', entries: plans.flat().map(entry) };
  }
}

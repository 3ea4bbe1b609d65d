// ACP v2 rendering (schema 2.0.0-alpha.3, unstable surfaces included: markdown / file / custom
// plans and plan_removed).

import type { DemoEvent, HistoryRecord, JsonObject, PermissionAsk, ToolContent, ToolPatch } from '../model';
import { gitPatch } from './gitPatch';
import { compactionUpdate, mergeText, pick, type CommandInfo, type ConfigOptionInfo, type Wire } from './wire';

function toolContent(c: ToolContent): JsonObject {
  switch (c.type) {
    case 'text':
      return { type: 'content', content: { type: 'text', text: c.text } };
    case 'terminal':
      return { type: 'terminal', terminalId: c.terminalId };
    case 'diff':
      return {
        type: 'diff',
        changes: [{ operation: c.oldText === null ? 'add' : 'modify', path: c.path, fileType: 'text' }],
        patch: { format: 'git_patch', text: gitPatch(c.patchPath, c.oldText, c.newText) },
      };
  }
}

function toolFields(patch: ToolPatch): JsonObject {
  const out = pick(patch, ['toolCallId', 'title', 'kind', 'status', 'locations', 'rawInput', 'rawOutput', '_meta']);
  if (patch.content) out.content = patch.content.map(toolContent);
  return out;
}

const MESSAGE_UPSERT = { user: 'user_message', agent: 'agent_message', thought: 'agent_thought' } as const;
const MESSAGE_CHUNK = { user: 'user_message_chunk', agent: 'agent_message_chunk', thought: 'agent_thought_chunk' } as const;

export class WireV2 implements Wire {
  readonly version = 2 as const;

  live(event: DemoEvent): JsonObject[] {
    switch (event.kind) {
      case 'message':
        if (event.role === 'user') return [{ sessionUpdate: 'user_message', messageId: event.messageId, content: event.blocks }];
        return event.blocks.map((content) => ({ sessionUpdate: MESSAGE_CHUNK[event.role], messageId: event.messageId, content }));
      case 'plan':
        return [{ sessionUpdate: 'plan_update', plan: event.plan }];
      case 'planRemoved':
        return [{ sessionUpdate: 'plan_removed', planId: event.planId }];
      case 'tool':
        return [{ sessionUpdate: 'tool_call_update', ...toolFields(event.patch) }];
      case 'toolChunk':
        return [{ sessionUpdate: 'tool_call_content_chunk', toolCallId: event.toolCallId, content: toolContent(event.content) }];
      case 'terminal': {
        const out: JsonObject = { sessionUpdate: 'terminal_update', ...pick(event, ['terminalId', 'command', 'cwd', 'exitStatus']) };
        if (event.output !== undefined) out.output = { data: event.output };
        return [out];
      }
      case 'terminalChunk':
        return [{ sessionUpdate: 'terminal_output_chunk', terminalId: event.terminalId, data: event.data }];
      case 'info':
        return [{ sessionUpdate: 'session_info_update', ...pick(event, ['title', 'updatedAt']) }];
      case 'usage':
        return [{ sessionUpdate: 'usage_update', ...pick(event, ['used', 'size', 'cost', '_meta']) }];
      case 'state':
        return [{ sessionUpdate: 'state_update', ...pick(event, ['state', 'stopReason', 'background']) }];
      case 'compaction':
      case 'compactionChunk':
        return compactionUpdate(event);
      case 'mode':
        return [];
    }
  }

  replay(records: readonly HistoryRecord[]): JsonObject[] {
    return records.map((r): JsonObject => {
      switch (r.kind) {
        // Replay uses whole-message upserts, not the chunks the live turn streamed.
        case 'message':
          return { sessionUpdate: MESSAGE_UPSERT[r.role], messageId: r.messageId, content: mergeText(r.blocks) };
        case 'plan':
          return { sessionUpdate: 'plan_update', plan: r.plan };
        case 'planRemoved':
          return { sessionUpdate: 'plan_removed', planId: r.planId };
        case 'tool':
          return { sessionUpdate: 'tool_call_update', ...toolFields(r.call) };
        case 'terminal':
          return { sessionUpdate: 'terminal_update', ...pick(r, ['terminalId', 'command', 'cwd', 'exitStatus']), output: { data: r.output } };
        case 'info':
          return { sessionUpdate: 'session_info_update', ...pick(r, ['title', 'updatedAt']) };
        case 'usage':
          return { sessionUpdate: 'usage_update', ...pick(r, ['used', 'size', 'cost', '_meta']) };
      }
    });
  }

  permissionParams(sessionId: string, ask: PermissionAsk): JsonObject {
    const params: JsonObject = { sessionId, title: ask.title };
    if (ask.description !== undefined) params.description = ask.description;
    if (ask.command) params.subject = { type: 'command', ...ask.command };
    else if (ask.toolCall) params.subject = { type: 'tool_call', toolCall: toolFields(ask.toolCall) };
    params.options = ask.options;
    return params;
  }

  availableCommands(commands: readonly CommandInfo[]): JsonObject[] {
    return commands.map((c) => ({ name: c.name, description: c.description, ...(c.hint ? { input: { type: 'text', hint: c.hint } } : {}) }));
  }

  configOptions(options: readonly ConfigOptionInfo[]): JsonObject[] {
    return options.map((o) => {
      const base = { configId: o.id, name: o.name, description: o.description, category: o.category, type: o.kind, currentValue: o.value };
      return o.kind === 'select' ? { ...base, options: o.choices ?? [] } : base;
    });
  }
}

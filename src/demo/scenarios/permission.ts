// `/permission`: one permission request, its outcome echoed as a message:
// "permission: selected <optionId>" | "permission: cancelled" | "permission: unrecognized outcome".
// v2: a request without a subject. v1 (which needs a tool call): a `tool_call` "Permission check"
// (kind other) first, ended `completed` when allowed and `failed` otherwise.

import type { PermissionOutcome, ToolPatch } from '../model';
import type { Turn } from '../turn';
import { type Scenario } from './scenario';

export const ALL_PERMISSION_OPTIONS = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
  { optionId: 'reject_always', name: 'Always reject', kind: 'reject_always' },
] as const;

export function outcomeText(outcome: PermissionOutcome): string {
  if (outcome.outcome === 'selected') return `permission: selected ${outcome.optionId}`;
  if (outcome.outcome === 'cancelled') return 'permission: cancelled';
  return 'permission: unrecognized outcome';
}

export function isApproval(outcome: PermissionOutcome): boolean {
  return outcome.outcome === 'selected' && outcome.optionId.startsWith('allow');
}

/** Ends the tool call the permission was about, then echoes the outcome. */
export function report(turn: Turn, outcome: PermissionOutcome, toolCallId?: string): void {
  if (toolCallId) turn.tool({ toolCallId, status: isApproval(outcome) ? 'completed' : 'failed' });
  turn.say(outcomeText(outcome));
}

export const permissionScenario: Scenario = {
  name: 'permission',
  description: 'Ask for permission and echo the answer',
  async run(turn) {
    const title = 'May the Demo Agent continue?';
    const description = 'The /permission scenario only reports your answer.';
    const options = [...ALL_PERMISSION_OPTIONS];
    if (turn.version === 2) {
      report(turn, await turn.requestPermission({ title, description, options }));
      return;
    }
    const toolCall: ToolPatch = { toolCallId: turn.id('call_perm'), title: 'Permission check', kind: 'other', status: 'pending' };
    turn.tool(toolCall);
    report(turn, await turn.requestPermission({ title, description, toolCall, options }), toolCall.toolCallId);
  },
};

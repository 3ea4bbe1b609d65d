// A permission request as a transcript item: its bounded title, description and raw `_meta`, and,
// for a mode switch, the plan it asks to approve (from the tool call's input, else the last
// Markdown plan the agent sent). Pure: SessionTranscript adds the item. No `vscode`.
import type { PermissionRequest } from '../../protocol/domain';
import { MODE_SWITCH_KIND } from '../../protocol/domain';
import { permissionItemId } from './ids';
import type { SessionLimits } from './limits';
import type { PermissionItem, TranscriptItem } from './model';
import { cutText, keepRaw } from './size';
import { MAX_LABEL_CHARS } from './toolCalls';

/** The plan text an agent put in a tool call's input (a string field `plan`). */
export function planInInput(rawInput: unknown): string | undefined {
  if (typeof rawInput !== 'object' || rawInput === null || Array.isArray(rawInput)) return undefined;
  const plan = (rawInput as Record<string, unknown>).plan;
  return typeof plan === 'string' && plan.trim() !== '' ? plan : undefined;
}

/** The pending item of a permission request; `tc` is the item of its `tool_call` subject, if any. */
export function newPermission(
  req: PermissionRequest,
  requestId: string,
  flags: string[],
  tc: TranscriptItem | undefined,
  limits: SessionLimits,
  lastMarkdownPlan: string | undefined,
): PermissionItem {
  const subject = req.subject ?? null;
  const toolKind = tc?.kind === 'tool_call' ? tc.toolKind : null;
  return {
    kind: 'permission',
    itemId: permissionItemId(requestId),
    requestId,
    title: cutText(req.title, MAX_LABEL_CHARS),
    description: req.description == null ? null : cutText(req.description, limits.maxMessageChars),
    subject,
    options: req.options,
    state: 'pending',
    optionId: null,
    flags: [...flags],
    _meta: keepRaw(req._meta, limits.maxRawChars).value,
    toolKind,
    plan: toolKind === MODE_SWITCH_KIND ? modePlan(subject, tc, limits, lastMarkdownPlan) : null,
  };
}

/** The plan a mode switch asks to approve: from the tool call's input, else the last Markdown plan. */
function modePlan(
  subject: PermissionItem['subject'],
  tc: TranscriptItem | undefined,
  limits: SessionLimits,
  lastMarkdownPlan: string | undefined,
): PermissionItem['plan'] {
  const input =
    (subject?.type === 'tool_call' ? planInInput(subject.fields.rawInput) : undefined) ?? (tc?.kind === 'tool_call' ? planInInput(tc.rawInput) : undefined);
  if (input !== undefined) return { text: cutText(input, limits.maxMessageChars), source: 'input' };
  return lastMarkdownPlan === undefined ? null : { text: cutText(lastMarkdownPlan, limits.maxMessageChars), source: 'plan' };
}

// Which tool a tool call runs. ACP tool calls carry a display `title` and a `kind`, not the tool's
// own name, so we take the name from, in order:
//   1. the tool call's `name` field, where the agent sends one;
//   2. `_meta.toolName`, then `_meta.tool_name` (our documented convention; the Demo Agent sends
//      `_meta.toolName`);
//   3. `_meta.claudeCode.toolName` (what the Claude Code ACP adapters send).
// Otherwise the call cannot be checked against a plan. Titles are never used: they are prose.
import type { Meta } from '../protocol/domain';

/** The `_meta` paths read, in order, after the `name` field. */
export const TOOL_NAME_META_PATHS: readonly (readonly string[])[] = [
  ['toolName'],
  ['tool_name'],
  ['claudeCode', 'toolName'],
];

export function resolveToolName(name: unknown, meta: Meta | null | undefined): string | undefined {
  if (typeof name === 'string' && name !== '') return name;
  if (!meta) return undefined;
  for (const path of TOOL_NAME_META_PATHS) {
    let v: unknown = meta;
    for (const key of path) v = typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[key] : undefined;
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

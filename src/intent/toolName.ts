// Which tool a tool call runs. ACP tool calls carry a display `title` and a `kind`, not the tool's
// own name, so we take the name from, in order:
//   1. the tool call's `name` field, where the agent sends one;
//   2. `_meta.toolName`, then `_meta.tool_name` (our documented convention; the Demo Agent sends
//      `_meta.toolName`);
//   3. `_meta.claudeCode.toolName` (what the Claude Code ACP adapters send).
// Otherwise the tool may be inferred from the call's title and ACP kind (inferToolName, below), as
// a guess the verdict says it is.
import type { Meta } from '../protocol/domain';
import { english, type L10n } from '../common/l10n';

/** The `_meta` paths read, in order, after the `name` field. */
export const TOOL_NAME_META_PATHS: readonly (readonly string[])[] = [['toolName'], ['tool_name'], ['claudeCode', 'toolName']];

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

/**
 * ACP kinds and the tool names that conventionally have that kind (compared case-insensitively,
 * so Claude Code's `Read` and `Bash` count). `think`, `switch_mode` and `other` say nothing about
 * a tool. Documented in docs/INTENT.md ("A call without a tool name").
 */
export const KIND_TOOLS: Readonly<Record<string, readonly string[]>> = {
  read: ['read', 'read_file', 'view', 'view_file', 'cat', 'open_file'],
  edit: ['edit', 'edit_file', 'write', 'write_file', 'create_file', 'apply_patch', 'str_replace', 'multiedit', 'multi_edit', 'notebookedit'],
  delete: ['delete', 'delete_file', 'remove_file', 'rm'],
  move: ['move', 'move_file', 'rename', 'rename_file', 'mv'],
  search: ['search', 'grep', 'glob', 'find', 'find_files', 'list_files', 'list_dir', 'ls', 'codebase_search'],
  execute: ['bash', 'shell', 'exec', 'run_command', 'run_terminal_cmd', 'terminal'],
  fetch: ['fetch', 'web_fetch', 'webfetch', 'http_get', 'web_search', 'websearch'],
};

export type InferredTool = { ok: true; toolName: string; from: 'title' | 'kind' } | { ok: false; why: string };

const MAX_TITLE = 200;

/**
 * The tool of a call that names none, from its title and ACP kind, among the tools of the plan's
 * steps (`tools`). In order:
 *   1. title: the title is a step's tool name, or starts with one followed by a space, `(` or `:`
 *      (`github_list_issues(repo: …)`); exact case; the longest such name wins;
 *   2. kind: exactly one of the plan's tools is a conventional tool of that kind (KIND_TOOLS).
 * Otherwise it says why not (no title or kind, no step fits, several fit).
 */
export function inferToolName(tools: readonly string[], title: unknown, kind: unknown, l10n: L10n = english): InferredTool {
  const t = typeof title === 'string' ? title.slice(0, MAX_TITLE).trim() : '';
  let best: string | undefined;
  for (const tool of tools) {
    if (!t.startsWith(tool)) continue;
    const next = t.charAt(tool.length);
    if ((next === '' || next === ' ' || next === '(' || next === ':') && (!best || tool.length > best.length)) best = tool;
  }
  if (best) return { ok: true, toolName: best, from: 'title' };
  const k = typeof kind === 'string' ? kind : '';
  const known = Object.hasOwn(KIND_TOOLS, k) ? KIND_TOOLS[k] : undefined;
  const fits = known ? [...new Set(tools.filter((tool) => known.includes(tool.toLowerCase())))] : [];
  if (fits.length === 1) return { ok: true, toolName: fits[0]!, from: 'kind' };
  const shown = t ? JSON.stringify(t.length > 60 ? `${t.slice(0, 59)}…` : t) : undefined;
  const kindCase: KindCase = !k ? { kind: 'none' } : !known ? { kind: 'unknown', name: k.slice(0, 30) } : { kind: 'fits', name: k, fits };
  return { ok: false, why: noToolWhy(shown, kindCase, l10n) };
}

type KindCase = { kind: 'none' } | { kind: 'unknown'; name: string } | { kind: 'fits'; name: string; fits: string[] };

/** Why no tool could be inferred: one whole sentence for each case of title and kind. */
function noToolWhy(title: string | undefined, k: KindCase, l10n: L10n): string {
  if (title === undefined) {
    if (k.kind === 'none') return l10n.t('The call names no tool; it has no title and it has no kind.');
    if (k.kind === 'unknown') return l10n.t('The call names no tool; it has no title and its kind "{0}" says nothing about the tool.', k.name);
    if (k.fits.length)
      return l10n.t('The call names no tool; it has no title and its kind "{0}" fits several steps\' tools ({1}).', k.name, k.fits.slice(0, 5).join(', '));
    return l10n.t('The call names no tool; it has no title and its kind "{0}" fits no step\'s tool.', k.name);
  }
  if (k.kind === 'none') return l10n.t("The call names no tool; its title {0} names no step's tool and it has no kind.", title);
  if (k.kind === 'unknown')
    return l10n.t('The call names no tool; its title {0} names no step\'s tool and its kind "{1}" says nothing about the tool.', title, k.name);
  if (k.fits.length)
    return l10n.t(
      'The call names no tool; its title {0} names no step\'s tool and its kind "{1}" fits several steps\' tools ({2}).',
      title,
      k.name,
      k.fits.slice(0, 5).join(', '),
    );
  return l10n.t('The call names no tool; its title {0} names no step\'s tool and its kind "{1}" fits no step\'s tool.', title, k.name);
}

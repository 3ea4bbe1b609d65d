// Plan mode: a permission that asks the user to leave plan mode and start working on a plan (a
// tool call of kind `switch_mode`, e.g. "Approve Plan" / "Implement this plan?"). Pure, no `vscode`.
//
// Contract:
// - `isModeSwitch(req, knownKind)`: the request is about a `switch_mode` tool call, by the kind its
//   subject carries or the kind the transcript already knows for that tool call (`knownKind`).
//   A mode switch is ALWAYS put to the user: no rule is offered for it and no rule answers it.
// - `explainModeOption(option)`: one sentence per option saying what choosing it lets the agent do.
//   Chosen by the option's KIND first (a reject kind always "stays in plan mode"), then by words
//   of its id and name; the agent's words never make an option sound safer than its kind.
import { MODE_SWITCH_KIND, type PermissionOption, type PermissionRequest } from '../protocol/domain';
import { nameWords } from './optionPresentation';
import { english, type L10n } from '../common/l10n';

export { MODE_SWITCH_KIND };

export function isModeSwitch(req: PermissionRequest, knownKind?: string | null): boolean {
  const s = req.subject;
  if (s?.type !== 'tool_call') return false;
  return s.fields.kind === MODE_SWITCH_KIND || (s.fields.kind == null && knownKind === MODE_SWITCH_KIND);
}

const explanations = (l10n: L10n) => ({
  reject: l10n.t('Stay in plan mode: the agent changes nothing and keeps working on the plan with you.'),
  bypass: l10n.t('Leave plan mode and bypass permissions: the agent will edit files and run commands WITHOUT asking you.'),
  acceptEdits: l10n.t('Leave plan mode and accept edits: the agent edits files without asking; commands still ask you.'),
  auto: l10n.t('Leave plan mode in auto mode: the agent decides by itself which actions need your permission.'),
  manual: l10n.t('Leave plan mode: the agent starts on the plan and asks you before each edit or command, as before.'),
  implement: l10n.t('Leave plan mode: the agent starts on the plan; edits and commands follow the permissions you have set.'),
});

const has = (words: readonly string[], ...any: string[]): boolean => any.some((w) => words.includes(w));

/** What choosing this option of a mode switch lets the agent do, in words a person understands. */
export function explainModeOption(option: PermissionOption, l10n: L10n = english): string {
  const EXPLAIN = explanations(l10n);
  if (!option.kind.startsWith('allow')) return option.kind.startsWith('reject') ? EXPLAIN.reject : EXPLAIN.implement;
  // Ids are often camelCase (`bypassPermissions`, `acceptEdits`): split them into words too.
  const words = [...nameWords(option.optionId.replace(/([a-z])([A-Z])/g, '$1 $2')), ...nameWords(option.name)];
  if (has(words, 'bypass', 'bypasspermissions', 'yolo', 'dangerously', 'skip')) return EXPLAIN.bypass;
  if (has(words, 'auto', 'automatic', 'automatically')) return has(words, 'edits', 'edit') ? EXPLAIN.acceptEdits : EXPLAIN.auto;
  if (has(words, 'acceptedits') || (has(words, 'accept') && has(words, 'edits', 'edit'))) return EXPLAIN.acceptEdits;
  if (has(words, 'default', 'manual', 'manually', 'ask')) return EXPLAIN.manual;
  return EXPLAIN.implement;
}

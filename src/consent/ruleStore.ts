// Reading stored rules (globalState `acp.permissionRules`), any format version, safely.
//
// Contract:
// - `loadRules(raw)` never throws and never trusts the stored value: it keeps at most MAX_RULES
//   well-formed version-2 rules, migrates version-1 rules and reports every change in `notes`
//   (for the log and, once, for the user). Entries of a newer version are returned untouched in
//   `foreign` so that writing the list back does not destroy what a newer release stored.
// - Version 1 (`{agentId, type, value, createdAt}`, no `version`) is migrated so that it never
//   covers more than before, and usually much less:
//   * `commandPrefix` of a single word (`rm`, `env`, `sudo`, `bash`…) → removed: it approved every
//     use of that program, and one word alone is not a command the user saw.
//   * `commandPrefix` of several words → the exact command, in any folder (the old rule had no
//     folder), unless it could never be a rule today (privilege, patterns…) → removed. A
//     `git status|diff|log|show|branch` prefix becomes the read-only form of that subcommand.
//   * `toolKind` of `read`, `search` or `think` → kept as a kind-wide rule; any other kind → removed.
import { commandOffer } from './commandRules';
import { shellWords } from './shellWords';
import { readOnlySpec } from './readOnlyCommands';
import { LOOK_KINDS } from './toolRules';
import { RULE_FORMAT_VERSION, ruleValue, type PermissionRule, type RuleScope } from './ruleTypes';

export const MAX_RULES = 500;
const MAX_FIELD = 8192;

export interface LoadedRules {
  rules: PermissionRule[];
  foreign: unknown[];
  notes: string[];
}

const isStr = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_FIELD;
const isStrList = (v: unknown, max: number): v is string[] => Array.isArray(v) && v.length <= max && v.every(isStr);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A well-formed version-2 scope from stored fields, or undefined. */
function scopeOf(r: Record<string, unknown>): RuleScope | undefined {
  const cwd = r.cwd === null || isStr(r.cwd) ? r.cwd : undefined;
  switch (r.type) {
    case 'commandExact':
      return isStrList(r.words, 256) && r.words.length > 0 && cwd !== undefined ? { type: r.type, words: r.words, cwd } : undefined;
    case 'commandReadOnly':
      return isStr(r.program) && isStr(r.subcommand) && cwd !== undefined ? { type: r.type, program: r.program, subcommand: r.subcommand, cwd } : undefined;
    case 'toolPaths':
      return isStr(r.kind) && isStrList(r.paths, 64) ? { type: r.type, kind: r.kind, paths: r.paths } : undefined;
    case 'toolCall':
      return isStr(r.kind) && isStr(r.title) && isStrList(r.paths, 64) && (r.input === null || isStr(r.input))
        ? { type: r.type, kind: r.kind, title: r.title, paths: r.paths, input: r.input }
        : undefined;
    case 'toolKind':
      return isStr(r.kind) ? { type: r.type, kind: r.kind } : undefined;
    default:
      return undefined;
  }
}

/** The version-2 scope an old rule becomes, or the reason it is removed. */
export function migrateV1(type: unknown, value: unknown): RuleScope | string {
  if (!isStr(value)) return 'it was malformed';
  if (type === 'toolKind') {
    return LOOK_KINDS.has(value) ? { type: 'toolKind', kind: value } : `a rule for every "${value}" tool call could change anything; you will be asked again`;
  }
  if (type !== 'commandPrefix') return 'its type is unknown';
  const parsed = shellWords(value.trim());
  if (!parsed.ok || parsed.words.length < 2) return `it approved every command starting with "${value}"; you will be asked again and can pick a narrower rule`;
  const [program, sub] = parsed.words;
  if (parsed.words.length === 2 && readOnlySpec(program!, sub!)) return { type: 'commandReadOnly', program: program!, subcommand: sub!, cwd: null };
  const offer = commandOffer(value, '');
  if (offer.candidates.length === 0) return `it covered "${value}" with any further arguments; ${offer.reason ?? ''}`.trim();
  return { type: 'commandExact', words: parsed.words, cwd: null };
}

const make = (agentId: string, createdAt: number, scope: RuleScope): PermissionRule => ({
  ...scope,
  version: RULE_FORMAT_VERSION,
  agentId,
  value: ruleValue(scope),
  createdAt,
});

function describeScopeBriefly(s: RuleScope): string {
  switch (s.type) {
    case 'toolKind':
      return `every "${s.kind}" tool call`;
    case 'commandExact':
      return `exactly "${s.words.join(' ')}"`;
    case 'commandReadOnly':
      return `"${s.program} ${s.subcommand}" with read-only options only`;
    default:
      return s.type;
  }
}

export function loadRules(raw: unknown): LoadedRules {
  const out: LoadedRules = { rules: [], foreign: [], notes: [] };
  if (raw === undefined) return out;
  if (!Array.isArray(raw)) {
    out.notes.push('The stored permission rules were not a list and were ignored.');
    return out;
  }
  const seen = new Set<string>();
  for (const entry of raw.slice(0, MAX_RULES * 2)) {
    if (!isRecord(entry) || !isStr(entry.agentId)) {
      out.notes.push('A malformed stored rule was ignored.');
      continue;
    }
    const createdAt = typeof entry.createdAt === 'number' && Number.isFinite(entry.createdAt) ? entry.createdAt : 0;
    let scope: RuleScope | undefined;
    if (typeof entry.version === 'number' && entry.version > RULE_FORMAT_VERSION) {
      out.foreign.push(entry);
      continue;
    }
    if (entry.version === RULE_FORMAT_VERSION) {
      scope = scopeOf(entry);
      if (!scope) {
        out.notes.push(`A malformed stored rule of ${entry.agentId} was ignored.`);
        continue;
      }
    } else {
      const m = migrateV1(entry.type, entry.value);
      const old = `${entry.agentId}: ${String(entry.type)} "${String(entry.value).slice(0, 200)}"`;
      if (typeof m === 'string') {
        out.notes.push(`Removed the old rule ${old}: ${m}.`);
        continue;
      }
      scope = m;
      out.notes.push(`Narrowed the old rule ${old} to: ${describeScopeBriefly(m)}.`);
    }
    const rule = make(entry.agentId, createdAt, scope);
    const key = `${rule.agentId}\u0000${rule.type}\u0000${rule.value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (out.rules.length >= MAX_RULES) {
      out.notes.push(`More than ${MAX_RULES} rules were stored; the rest were ignored.`);
      break;
    }
    out.rules.push(rule);
  }
  return out;
}

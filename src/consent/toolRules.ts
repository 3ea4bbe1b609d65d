// Rules for tool calls (a permission request whose subject is `{type: "tool_call"}`).
//
// Contract:
// - `toolOffer(fields)` lists the rules the user may pick when allowing a tool call always:
//   * NARROW: for `read`, `edit`, `delete`, `move` and `search` calls that name their files, the
//     same kind on exactly the same set of files; otherwise exactly this call again (same kind,
//     title, files and input, the input compared as canonical JSON).
//   * WIDER, only for kinds that just look (`read`, `search`, `think`): every call of that kind.
//     Never for `edit`, `delete`, `move`, `execute`, `fetch` (it can send data out), `switch_mode`,
//     `other` or a kind this client does not know.
//   * NOTHING for `switch_mode` (a plan-mode approval is always asked), nor when the call has no kind, no title and no input (nothing to describe), or when its
//     files, title or input are too large or hold control characters (not shown faithfully).
// - The files of a call are its `locations` plus the paths of its diff content; compared as exact
//   strings (no normalization: a different spelling of a path simply asks again).
// - `toolScopeMatches` re-checks kinds on every request: a stored kind-wide `edit` rule never matches.
import { MODE_SWITCH_KIND, type ToolCallFields } from '../protocol/domain';
import { isRefusedChar } from './shellWords';
import type { RuleCandidate, RuleScope } from './ruleTypes';
import type { DisplayPath, RuleOffer } from './commandRules';

type ToolScope = Extract<RuleScope, { type: 'toolPaths' | 'toolCall' | 'toolKind' }>;

export const LOOK_KINDS = new Set(['read', 'search', 'think']);
export const PATH_KINDS = new Set(['read', 'edit', 'delete', 'move', 'search']);
export const MAX_PATHS = 64;
export const MAX_TEXT = 4096;
export const MAX_INPUT = 8192;
const MAX_DEPTH = 32;

const displayable = (s: string): boolean => {
  if (s.length > MAX_TEXT) return false;
  for (let i = 0; i < s.length; i++) if (isRefusedChar(s.charCodeAt(i))) return false;
  return true;
};

/** Sorted, distinct file paths the call names; undefined when there are too many or they can't be shown. */
export function toolPaths(fields: ToolCallFields): string[] | undefined {
  const out = new Set<string>();
  const add = (p: unknown): boolean => {
    if (typeof p === 'string' && p !== '') out.add(p);
    return out.size <= MAX_PATHS;
  };
  for (const l of Array.isArray(fields.locations) ? fields.locations : []) if (!add(l?.path)) return undefined;
  for (const c of Array.isArray(fields.content) ? fields.content : []) {
    if (c?.type !== 'diff') continue;
    for (const ch of Array.isArray(c.changes) ? c.changes : []) if (!add(ch?.path) || !add(ch?.oldPath)) return undefined;
    for (const t of Array.isArray(c.texts) ? c.texts : []) if (!add(t?.path)) return undefined;
  }
  const paths = [...out].sort();
  return paths.every(displayable) ? paths : undefined;
}

/** JSON with sorted keys; undefined when deeper than MAX_DEPTH or longer than MAX_INPUT. */
export function canonicalJson(v: unknown): string | undefined {
  let budget = MAX_INPUT;
  const walk = (x: unknown, depth: number): string | undefined => {
    if (depth > MAX_DEPTH || budget < 0) return undefined;
    let s: string | undefined;
    if (typeof x === 'bigint') return undefined;
    if (x === null || typeof x !== 'object') s = JSON.stringify(x ?? null) ?? 'null';
    else if ((Array.isArray(x) ? x.length : Object.keys(x).length) > MAX_INPUT) return undefined;
    else if (Array.isArray(x)) {
      const parts: string[] = [];
      for (const e of x) {
        const p = walk(e, depth + 1);
        if (p === undefined) return undefined;
        parts.push(p);
      }
      s = `[${parts.join(',')}]`;
    } else {
      const parts: string[] = [];
      for (const k of Object.keys(x).sort()) {
        const p = walk((x as Record<string, unknown>)[k], depth + 1);
        if (p === undefined) return undefined;
        parts.push(`${JSON.stringify(k)}:${p}`);
      }
      s = `{${parts.join(',')}}`;
    }
    budget -= s.length;
    return budget < 0 ? undefined : s;
  };
  return walk(v, 0);
}

interface CallFacts {
  kind: string;
  title: string;
  paths: string[];
  input: string | null;
}

function facts(fields: ToolCallFields): CallFacts | string {
  const kind = typeof fields.kind === 'string' ? fields.kind : '';
  if (!kind) return 'the request does not say what kind of tool it is';
  if (kind === MODE_SWITCH_KIND) return 'leaving plan mode is always put to you';
  const title = typeof fields.title === 'string' ? fields.title : '';
  const paths = toolPaths(fields);
  if (!paths) return `it names more than ${MAX_PATHS} files, or a file name with control characters`;
  if (!displayable(title) || !displayable(kind)) return 'its title or kind is too long or holds control characters';
  const input = fields.rawInput === undefined ? null : canonicalJson(fields.rawInput);
  if (input === undefined) return 'its input is too large or too deep to compare exactly';
  return { kind, title, paths, input };
}

function narrowScope(f: CallFacts): ToolScope | undefined {
  if (PATH_KINDS.has(f.kind) && f.paths.length > 0) return { type: 'toolPaths', kind: f.kind, paths: f.paths };
  if (f.title === '' && f.input === null && f.paths.length === 0) return undefined;
  return { type: 'toolCall', kind: f.kind, title: f.title, paths: f.paths, input: f.input };
}

export function toolOffer(fields: ToolCallFields, displayPath: DisplayPath = (p) => p): RuleOffer {
  const f = facts(fields);
  if (typeof f === 'string') return { candidates: [], reason: `No rule: ${f}.` };
  const narrow = narrowScope(f);
  if (!narrow) return { candidates: [], reason: 'No rule: the request has no title, input or files that a rule could be matched on.' };
  const candidates: RuleCandidate[] = [{ breadth: 'narrow', scope: narrow, description: describeToolScope(narrow, displayPath) }];
  if (LOOK_KINDS.has(f.kind)) {
    const wide: ToolScope = { type: 'toolKind', kind: f.kind };
    candidates.push({ breadth: 'wider', scope: wide, description: describeToolScope(wide, displayPath) });
  }
  return { candidates };
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);

export function toolScopeMatches(scope: ToolScope, fields: ToolCallFields): boolean {
  const f = facts(fields);
  if (typeof f === 'string' || f.kind !== scope.kind) return false;
  switch (scope.type) {
    case 'toolKind':
      return LOOK_KINDS.has(f.kind);
    case 'toolPaths':
      return PATH_KINDS.has(f.kind) && f.paths.length > 0 && sameList(scope.paths, f.paths);
    case 'toolCall':
      return narrowScope(f) !== undefined && scope.title === f.title && scope.input === f.input && sameList(scope.paths, f.paths);
    default:
      return scope satisfies never;
  }
}

const KIND_WIDE: Record<string, string> = {
  read: 'whatever file it reads (it only reads)',
  search: 'whatever it searches for, wherever (it only searches)',
  think: 'every thinking step (it changes nothing)',
};

export function describeToolScope(scope: ToolScope, displayPath: DisplayPath = (p) => p): string {
  switch (scope.type) {
    case 'toolKind':
      return `Allows every \`${scope.kind}\` tool call, ${KIND_WIDE[scope.kind] ?? '(never applied: this kind can change things)'}.`;
    case 'toolPaths': {
      const files = scope.paths.map(displayPath);
      const what = files.length === 1 ? `exactly ${files[0]}` : `exactly these ${files.length} files together: ${files.join(', ')}`;
      return `Allows \`${scope.kind}\` tool calls on ${what} — any other file asks again.`;
    }
    case 'toolCall': {
      const files = scope.paths.length ? ` on ${scope.paths.map(displayPath).join(', ')}` : '';
      return `Allows the \`${scope.kind}\` tool call "${scope.title}"${files} again only with exactly the same input — any change asks again.`;
    }
    default:
      return scope satisfies never;
  }
}

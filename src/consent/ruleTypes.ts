// The stored shape of a permission rule (format version 2) and of the candidates offered to the user.
//
// Contract: a rule is plain JSON, stored as is (globalState `acp.permissionRules`). `type` tells
// what it covers; `value` is the rule's identity (same agent + type + value = same rule), derived
// from the other fields by `ruleValue`, so code that dedupes or revokes by (agentId, type, value)
// stays correct. Format version 1 (`toolKind` / `commandPrefix`, no `version`) is read by
// `ruleStore.ts` and never matched as is.

export const RULE_FORMAT_VERSION = 2;

/** What one rule covers; every variant is described exactly by `describeScope`. */
export type RuleScope =
  /** Exactly these words (after shell quoting), in exactly this folder (`null`: a migrated rule, any folder). */
  | { type: 'commandExact'; words: string[]; cwd: string | null }
  /** `program subcommand` with only the arguments the read-only table allows for it. */
  | { type: 'commandReadOnly'; program: string; subcommand: string; cwd: string | null }
  /** Tool calls of this kind whose files are exactly these (sorted, no duplicates). */
  | { type: 'toolPaths'; kind: string; paths: string[] }
  /** Exactly this tool call again: same kind, title, files and input (canonical JSON, or null). */
  | { type: 'toolCall'; kind: string; title: string; paths: string[]; input: string | null }
  /** Every tool call of a kind that only looks (read, search, think). */
  | { type: 'toolKind'; kind: string };

export type PermissionRule = RuleScope & {
  version: typeof RULE_FORMAT_VERSION;
  agentId: string;
  /** The rule's identity within (agentId, type); see `ruleValue`. */
  value: string;
  createdAt: number;
};

/** One rule the user may create from a request; `narrow` always comes first. */
export interface RuleCandidate {
  breadth: 'narrow' | 'wider';
  scope: RuleScope;
  /** One line that says exactly what the rule will cover, e.g. "Runs exactly `npm test` in /w …". */
  description: string;
}

/** The identity of a scope: canonical JSON of its fields in a fixed order. */
export function ruleValue(s: RuleScope): string {
  switch (s.type) {
    case 'commandExact':
      return JSON.stringify([s.words, s.cwd]);
    case 'commandReadOnly':
      return JSON.stringify([s.program, s.subcommand, s.cwd]);
    case 'toolPaths':
      return JSON.stringify([s.kind, s.paths]);
    case 'toolCall':
      return JSON.stringify([s.kind, s.title, s.paths, s.input]);
    case 'toolKind':
      return s.kind;
    default:
      return s satisfies never;
  }
}

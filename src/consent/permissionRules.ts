// Permission rules the user created ("always allow this, for this agent"), and what each covers.
// Pure and vscode-free; the broker stores the rules and asks the user.
//
// Contract (details in src/agents/consent/*):
// - A rule never allows more than the user saw. `ruleOffer(request)` lists the candidates for an
//   "always allow": a NARROW one (exactly this command line in this folder / exactly these files /
//   exactly this call) and, only where it is safe, a WIDER one (a read-only git subcommand with
//   its harmless options; every call of a kind that only looks: read, search, think). Each has a
//   one-line description saying exactly what it covers; the user picks one. Nothing is offered for
//   compound commands, privilege commands, file patterns, unknown subjects: `reason` says why.
// - `ruleMatches` re-checks everything on each request; rules of format version 1 (`commandPrefix`,
//   `toolKind`) never match as stored — `loadRules` (consent/ruleStore.ts) migrates them.
// - A rule never invents an approval: it only picks the agent's own allow option, and never one
//   whose name contradicts its kind or whose id is shared (`allowOption`).
import type { PermissionOption, PermissionRequest } from '../protocol/domain';
import { commandOffer, commandScopeMatches, describeCommandScope, type DisplayPath, type RuleOffer } from './commandRules';
import { optionPresentation } from './optionPresentation';
import { RULE_FORMAT_VERSION, ruleValue, type PermissionRule, type RuleCandidate, type RuleScope } from './ruleTypes';
import { describeToolScope, toolOffer, toolScopeMatches } from './toolRules';

export type { PermissionRule, RuleCandidate, RuleScope } from './ruleTypes';
export type { DisplayPath, RuleOffer } from './commandRules';
export { RULE_FORMAT_VERSION, ruleValue } from './ruleTypes';
export { loadRules, MAX_RULES, type LoadedRules } from './ruleStore';
export { optionPresentation, outcomeFor, viewForLabel, type OptionView } from './optionPresentation';

export interface DescribeOptions {
  /** How to show an absolute path (e.g. relative to the workspace). */ displayPath?: DisplayPath;
}

/** The rules the user may pick for an "always allow" of `req` (narrow first), or why there are none. */
export function ruleOffer(req: PermissionRequest, opts: DescribeOptions = {}): RuleOffer {
  const s = req.subject;
  if (!s) return { candidates: [], reason: 'No rule: the request does not say what it is about.' };
  if (s.type === 'command') return commandOffer(s.command, s.cwd, opts.displayPath);
  if (s.type === 'tool_call') return toolOffer(s.fields, opts.displayPath);
  return { candidates: [], reason: `No rule: this client does not know requests about "${String(s.rawType).slice(0, 40)}".` };
}

export function ruleCandidates(req: PermissionRequest, opts: DescribeOptions = {}): RuleCandidate[] {
  return ruleOffer(req, opts).candidates;
}

/** The stored rule for the candidate the user picked. */
export function createRule(agentId: string, candidate: RuleCandidate | RuleScope, createdAt: number): PermissionRule {
  const scope = 'scope' in candidate ? candidate.scope : candidate;
  return { ...scope, version: RULE_FORMAT_VERSION, agentId, value: ruleValue(scope), createdAt };
}

export function sameRule(a: PermissionRule, b: PermissionRule): boolean {
  return a.agentId === b.agentId && a.type === b.type && a.value === b.value;
}

export function ruleMatches(rule: PermissionRule, agentId: string, req: PermissionRequest): boolean {
  if (typeof rule !== 'object' || rule === null || rule.version !== RULE_FORMAT_VERSION || rule.agentId !== agentId) return false;
  const s = req.subject;
  if (!s) return false;
  switch (rule.type) {
    case 'commandExact':
    case 'commandReadOnly':
      return s.type === 'command' && typeof s.command === 'string' && typeof s.cwd === 'string' && commandScopeMatches(rule, s.command, s.cwd);
    case 'toolPaths':
    case 'toolCall':
    case 'toolKind':
      return s.type === 'tool_call' && toolScopeMatches(rule, s.fields);
    default:
      return false;
  }
}

/** What a scope covers, in one line. */
export function describeScope(scope: RuleScope, opts: DescribeOptions = {}): string {
  switch (scope.type) {
    case 'commandExact':
    case 'commandReadOnly':
      return describeCommandScope(scope, opts.displayPath);
    case 'toolPaths':
    case 'toolCall':
    case 'toolKind':
      return describeToolScope(scope, opts.displayPath);
    default:
      return scope satisfies never;
  }
}

/** "Agent: what the rule covers"; an unreadable or old stored rule is said to be not applied. */
export function describeRule(rule: PermissionRule, agentName: string, opts: DescribeOptions = {}): string {
  if (typeof rule !== 'object' || rule === null) return `${agentName}: an unreadable rule — never applied; remove it`;
  if (rule.version !== RULE_FORMAT_VERSION) {
    const old = rule as unknown as { type?: unknown; value?: unknown };
    return `${agentName}: old rule "${String(old.type)} ${String(old.value).slice(0, 200)}" — no longer applied`;
  }
  try {
    return `${agentName}: ${describeScope(rule, opts)}`;
  } catch {
    return `${agentName}: an unreadable rule — never applied; remove it`;
  }
}

/** The agent's own option a rule may pick: allow_once first, else allow_always; never a flagged one. */
export function allowOption(options: PermissionOption[]): PermissionOption | undefined {
  const views = optionPresentation(options).filter((v) => v.mayAutoPick);
  const pick = views.find((v) => v.kind === 'allow_once') ?? views.find((v) => v.kind === 'allow_always');
  return pick && options[pick.index];
}

/**
 * @deprecated Transitional, so the current broker keeps compiling and creates only NARROW rules:
 * the broker should offer `ruleOffer(req).candidates` and let the user pick.
 */
export function requestFacet(req: PermissionRequest): (RuleScope & { version: typeof RULE_FORMAT_VERSION; value: string }) | undefined {
  const narrow = ruleCandidates(req)[0];
  return narrow && { ...narrow.scope, version: RULE_FORMAT_VERSION, value: ruleValue(narrow.scope) };
}

// Permission rules the user created ("always allow this tool kind / this command prefix for this
// agent"). A rule never invents an approval: it only picks the agent's own allow option.
import type { PermissionOption, PermissionRequest } from '../protocol/domain';

/** Characters that chain, substitute or redirect in a shell command. */
const SHELL_META = /[;&|`$()<>\n\r\\]/;

export interface PermissionRule {
  agentId: string;
  /** `toolKind`: the tool call's kind equals `value`; `commandPrefix`: the command starts with `value`. */
  type: 'toolKind' | 'commandPrefix';
  value: string;
  createdAt: number;
}

export function describeRule(r: PermissionRule, agentName: string): string {
  return r.type === 'toolKind'
    ? `${agentName}: always allow tools of kind "${r.value}"`
    : `${agentName}: always allow commands starting with "${r.value}"`;
}

/** What a request is about, for matching and for creating a rule. */
export function requestFacet(req: PermissionRequest): { type: PermissionRule['type']; value: string } | undefined {
  const s = req.subject;
  if (!s) return undefined;
  if (s.type === 'command') {
    if (SHELL_META.test(s.command)) return undefined; // compound commands never become rules
    const [program, sub] = s.command.trim().split(/\s+/);
    if (!program) return undefined;
    // "git status" → the rule covers `git status …`, not every `git` command.
    return { type: 'commandPrefix', value: sub && /^[A-Za-z][\w:.-]*$/.test(sub) ? `${program} ${sub}` : program };
  }
  if (s.type === 'tool_call' && typeof s.fields.kind === 'string' && s.fields.kind) return { type: 'toolKind', value: s.fields.kind };
  return undefined;
}

export function ruleMatches(rule: PermissionRule, agentId: string, req: PermissionRequest): boolean {
  if (rule.agentId !== agentId) return false;
  const s = req.subject;
  if (!s) return false;
  if (rule.type === 'commandPrefix' && s.type === 'command') {
    // A rule never answers a compound command (`npm test; curl … | sh`): the user is asked.
    if (SHELL_META.test(s.command)) return false;
    const cmd = s.command.trim();
    return cmd === rule.value || cmd.startsWith(rule.value + ' ');
  }
  if (rule.type === 'toolKind' && s.type === 'tool_call') return s.fields.kind === rule.value;
  return false;
}

/** The agent's own option a rule may pick: allow_once first, else allow_always; never a reject. */
export function allowOption(options: PermissionOption[]): PermissionOption | undefined {
  return options.find((o) => o.kind === 'allow_once') ?? options.find((o) => o.kind === 'allow_always');
}

// Permission rules the user created ("always allow this tool kind / this command prefix for this
// agent"). A rule never invents an approval: it only picks the agent's own allow option.
import type { PermissionOption, PermissionRequest } from '../protocol/events';

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
    const first = s.command.trim().split(/\s+/)[0];
    return first ? { type: 'commandPrefix', value: first } : undefined;
  }
  if (s.type === 'tool_call' && typeof s.fields.kind === 'string' && s.fields.kind) return { type: 'toolKind', value: s.fields.kind };
  return undefined;
}

export function ruleMatches(rule: PermissionRule, agentId: string, req: PermissionRequest): boolean {
  if (rule.agentId !== agentId) return false;
  const s = req.subject;
  if (!s) return false;
  if (rule.type === 'commandPrefix' && s.type === 'command') {
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

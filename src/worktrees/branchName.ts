// Branch names of worktree sessions: `acp/<agent>/<name>`, checked before git sees them so a bad
// name gets a reason, not git's error. Pure (unit tested).
import type { BranchNameRule } from './reasons';

/** The rule of `git check-ref-format --branch` that `name` breaks; undefined when `name` is fine. */
export function branchNameRule(name: string): BranchNameRule | undefined {
  if (!name) return 'empty';
  if (name.length > 100) return 'too-long';
  if ([...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) || /[\s~^:?*[\\]/.test(name)) return 'bad-character';
  if (name.includes('..')) return 'double-dot';
  if (name.includes('@{')) return 'at-brace';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'slash';
  if (name.startsWith('-')) return 'leading-dash';
  if (name.endsWith('.') || name.endsWith('.lock')) return 'bad-ending';
  if (name.split('/').some((part) => part.startsWith('.'))) return 'dot-component';
  if (name === '@') return 'at-alone';
  return undefined;
}

const RULES: Record<BranchNameRule, string> = {
  empty: 'Give the worktree a name.',
  'too-long': 'The name is too long (at most 100 characters).',
  'bad-character': 'The name may not contain spaces or any of ~ ^ : ? * [ \\.',
  'double-dot': 'The name may not contain "..".',
  'at-brace': 'The name may not contain "@{".',
  slash: 'The name may not start or end with "/" or contain "//".',
  'leading-dash': 'The name may not start with "-".',
  'bad-ending': 'The name may not end with "." or ".lock".',
  'dot-component': 'No part of the name may start with ".".',
  'at-alone': 'The name may not be "@".',
};

/** The broken rule said in English (logs; the views word the rule, src/ui/team/teamWords.ts); undefined when `name` is fine. */
export function branchNameProblem(name: string): string | undefined {
  const rule = branchNameRule(name);
  return rule && RULES[rule];
}

/** An agent id as one branch name component: letters, digits, `-`, `_`, `.` kept, the rest `-`. */
export function agentComponent(agentId: string): string {
  const s = agentId
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '')
    .replace(/\.{2,}/g, '.');
  return s.replace(/\.lock$/, '-lock') || 'agent';
}

/** The branch of a worktree session. */
export function sessionBranch(agentId: string, name: string): string {
  return `acp/${agentComponent(agentId)}/${name}`;
}

/** The worktree folder's name for a branch (its `/` as `-`). */
export function folderName(branch: string): string {
  return branch.replace(/^acp\//, '').replace(/\//g, '-');
}

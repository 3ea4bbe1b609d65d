// Branch names of worktree sessions: `acp/<agent>/<name>`, checked before git sees them so a bad
// name gets a sentence, not git's error. Pure (unit tested).

/** The rules of `git check-ref-format --branch`, said for a person; undefined when `name` is fine. */
export function branchNameProblem(name: string): string | undefined {
  if (!name) return 'Give the worktree a name.';
  if (name.length > 100) return 'The name is too long (at most 100 characters).';
  if ([...name].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) || /[\s~^:?*[\\]/.test(name))
    return 'The name may not contain spaces or any of ~ ^ : ? * [ \\.';
  if (name.includes('..')) return 'The name may not contain "..".';
  if (name.includes('@{')) return 'The name may not contain "@{".';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'The name may not start or end with "/" or contain "//".';
  if (name.startsWith('-')) return 'The name may not start with "-".';
  if (name.endsWith('.') || name.endsWith('.lock')) return 'The name may not end with "." or ".lock".';
  if (name.split('/').some((part) => part.startsWith('.'))) return 'No part of the name may start with ".".';
  if (name === '@') return 'The name may not be "@".';
  return undefined;
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

// Path containment, free of `vscode`: the one check every layer uses to ask "is this path inside
// that folder" (the agents' path policy, the workspace helpers, the conversation's diff access).
import * as path from 'node:path';

/** True when `target` is `folder` or inside it (both absolute and normalized). */
export function within(folder: string, target: string): boolean {
  const rel = path.relative(folder, target);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

// A size limit of the transcript (src/state/transcript/limits.ts) as people read it. Pure (no
// `vscode`): the conversation's view model words it with its `L10n`.
import type { L10n } from '../../common/l10n';

const KiB = 1024;
const MiB = 1024 * KiB;

/** "1 MiB", "64 KiB", "500 characters". */
export function sizeText(chars: number, l10n: L10n): string {
  if (chars >= MiB && chars % MiB === 0) return `${chars / MiB} MiB`;
  if (chars >= MiB) return `${(chars / MiB).toFixed(1)} MiB`;
  if (chars >= KiB) return `${Math.round(chars / KiB)} KiB`;
  return l10n.t('{0} characters', chars);
}

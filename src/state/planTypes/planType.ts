// What a plan type is to the vscode-free layers: how its revisions are summarized, what is derived
// from them (once per revision: a Markdown outline, say), how it is exported as Markdown and how
// it shrinks under the store's byte cap. The types are registered in ./index.ts; the tree side of
// each type (children, icon, open) lives in src/ui/planTypes/ under the same name.
import type { PlanContent } from '../../protocol/domain';
import type { FileView, PlanSummary } from '../planSummary';

/** The content variant of each wire type (`unknown` also carries custom types such as `_intent`). */
export type ContentOf<T extends PlanContent['type']> = Extract<PlanContent, { type: T }>;

export interface PlanTypeModel<P extends PlanContent, D> {
  /**
   * Which plans are of this type: a wire type (`items`, `markdown`, `file`) or the `type` of a
   * custom plan that arrives as `unknown` (custom names start with `_`, as ACP's extension names
   * do: `_intent`). The fallback type has none.
   */
  readonly wireType: Exclude<PlanContent['type'], 'unknown'> | `_${string}` | undefined;
  /** Data derived from one revision (and a file plan's loaded text); computed once per change. */
  derive(plan: P, file: FileView | undefined): D;
  summarize(version: number, plan: P, data: D, file: FileView | undefined): PlanSummary;
  /** The Markdown body that follows the `## <planId> · <header>` line of an export. */
  exportBody(plan: P, data: D, file: FileView | undefined): string;
  /**
   * A smaller copy of a plan whose content is over `maxBytes` (its head), and what was left out
   * ("the last 2.1 MiB of the text"); undefined when it fits.
   */
  limit(plan: P, maxBytes: number): { plan: P; dropped: string } | undefined;
}

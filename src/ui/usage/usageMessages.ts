// What the usage page and the extension say to each other. The extension sends the table as text
// and numbers (names already resolved, shown with textContent); the page asks for a grouping or an
// export. Pure types, shared by src/ui/usage and media/src/usage.ts.
import type { UsageGrouping } from '../../app/usage/usageLedger';

export interface UsageColumn {
  readonly label: string;
  /** Numbers are right-aligned and sorted as numbers. */
  readonly numeric: boolean;
}

export interface UsageTable {
  readonly kind: 'table';
  readonly by: UsageGrouping;
  readonly columns: readonly UsageColumn[];
  /** Each row: its key (the ledger's: agent and session, agent, or day) and its cells, each the text shown and the value sorted by. */
  readonly rows: readonly { readonly key: string; readonly cells: readonly { readonly text: string; readonly sort: string | number }[] }[];
  /** Said when there are no rows. */
  readonly empty: string;
  /** The agents' rate limits (newest report of each window), when any agent reported one. */
  readonly limits?: {
    readonly title: string;
    readonly columns: readonly UsageColumn[];
    readonly rows: readonly { readonly key: string; readonly cells: readonly { readonly text: string; readonly sort: string | number }[] }[];
  };
}

export type ToUsagePage = UsageTable;
export type FromUsagePage = { readonly kind: 'group'; readonly by: UsageGrouping } | { readonly kind: 'export' } | { readonly kind: 'ready' };

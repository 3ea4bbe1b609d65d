// What a scenario is, and small helpers scenarios share.

import type { Block, EntryStatus, PlanEntry, Priority } from '../model';
import type { Turn } from '../turn';

export interface Scenario {
  /** The keyword after `/` that selects it (`fs` for "/fs notes.txt"). */
  readonly name: string;
  readonly description: string;
  /** Shown as the command's input hint when it takes an argument. */
  readonly hint?: string;
  /** `args`: the prompt text after the keyword, trimmed. */
  run(turn: Turn, args: string, prompt: Block[]): Promise<void>;
}

/** An `items` plan the scenario moves forward; every change sends the whole plan. */
export class ItemPlan {
  private readonly entries: PlanEntry[];

  constructor(
    private readonly turn: Turn,
    readonly planId: string,
    entries: [string, Priority][],
  ) {
    this.entries = entries.map(([content, priority]) => ({ content, priority, status: 'pending' }));
  }

  /** Applies status changes (`[index, status]`) and sends the plan once. */
  set(...changes: [number, EntryStatus][]): void {
    for (const [index, status] of changes) this.entries[index].status = status;
    this.send();
  }

  send(): void {
    this.turn.emit({ kind: 'plan', plan: { type: 'items', planId: this.planId, entries: this.entries.map((e) => ({ ...e })) } });
  }
}

/** A Markdown code fence longer than any backtick run inside `text`. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

export const PERMISSION_OPTIONS = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
] as const;

// Items an agent reports about the session itself rather than the work: notices, and context
// compactions (one item per `compactionId`, placed where the first update or chunk for it came;
// its summary streams in like a message's text, within the message limit).
import type { SessionEvent } from '../../protocol/domain';
import { compactionItemId } from './ids';
import type { ItemList } from './itemList';
import type { SessionLimits } from './limits';
import { appendBlock, replaceParts } from './messages';
import type { CompactionItem, NoticeItem } from './model';
import { cutText } from './size';
import { MAX_LABEL_CHARS } from './toolCalls';

type Notice = Extract<SessionEvent, { kind: 'notice' }>;
type Compaction = Extract<SessionEvent, { kind: 'compaction' | 'compaction_chunk' }>;
/** What changed: a new item, text appended to the summary, or the item replaced. */
export type InfoChange = [itemId: string, kind: 'add' | 'append' | 'upsert'];

/** Characters a compaction counts besides its summary and error (status, counts, ids). */
const COMPACTION_BASE = 100;

export function newNotice(e: Notice, itemId: string, limits: SessionLimits): { item: NoticeItem; size: number } {
  const description = e.description == null ? null : cutText(e.description, limits.maxMessageChars);
  const item: NoticeItem = { kind: 'notice', itemId, severity: cutText(e.severity, 100), title: cutText(e.title, MAX_LABEL_CHARS), description };
  return { item, size: item.title.length + (description?.length ?? 0) };
}

/**
 * Applies a compaction update or summary chunk to its item (made in progress when the id is new,
 * even by a chunk) and keeps the list's count of its size. Undefined when nothing shown changed.
 */
export function applyCompaction(items: ItemList, e: Compaction, limits: SessionLimits): InfoChange | undefined {
  const id = cutText(e.compactionId, MAX_LABEL_CHARS);
  const existing = items.item(compactionItemId(id));
  const c: CompactionItem = existing?.kind === 'compaction' ? existing : newCompaction(id);
  const used = existing ? items.sizeOf(c.itemId) : COMPACTION_BASE;
  let size: number;
  let change: InfoChange[1] = 'upsert';
  if (e.kind === 'compaction_chunk') {
    const r = appendBlock(c, used, e.content, limits.maxMessageChars);
    size = r.size;
    // Shown again whole once with its truncation note; a chunk dropped after that changes nothing shown.
    if (r.newlyTruncated) c.rev++;
    else if (r.appended) change = 'append';
    else if (existing) return resized(items, c, size);
  } else size = update(c, e, used, limits);
  if (!existing) {
    items.push(c, size);
    return [c.itemId, 'add'];
  }
  items.resize(c.itemId, size);
  return [c.itemId, change];
}

function newCompaction(id: string): CompactionItem {
  return { kind: 'compaction', itemId: compactionItemId(id), compactionId: id, status: 'in_progress', error: null, tokens: null, parts: [], rev: 0 };
}

/** Patches status, error, counts and summary (omitted: unchanged, null: cleared); returns the new size. */
function update(c: CompactionItem, e: Extract<Compaction, { kind: 'compaction' }>, used: number, limits: SessionLimits): number {
  c.status = cutText(e.status, 100);
  const oldError = c.error?.length ?? 0;
  if (e.error !== undefined) c.error = e.error === null ? null : cutText(e.error, MAX_LABEL_CHARS);
  if (e.tokens !== undefined) c.tokens = e.tokens === null ? null : { ...e.tokens };
  const head = COMPACTION_BASE + (c.error?.length ?? 0);
  c.rev++;
  if (e.summary === undefined) return used - oldError + (c.error?.length ?? 0);
  return replaceParts(c, e.summary ?? [], limits.maxMessageChars, head);
}

function resized(items: ItemList, c: CompactionItem, size: number): undefined {
  items.resize(c.itemId, size);
  return undefined;
}

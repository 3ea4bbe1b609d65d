// Messages within their size limit. Chunks are pushed onto per-part arrays and every 64 of them
// joined into one piece, so an append costs the size of the chunk (twice, at most). Past `limit` characters the head is kept and what arrives
// later is dropped and counted in `truncated`.
import type { ContentBlock, Meta } from '../../protocol/domain';
import { messageItemId } from './ids';
import { TEXT_JOIN_AT, type MessageItem, type MessagePart, type Role, type Truncation } from './model';

/** What holds parts: a message, or a compaction's summary. */
type WithParts = { parts: MessagePart[]; truncated?: Truncation };
import { fitBlock, keepRaw, noteDrop } from './size';

export function newMessage(role: Role, messageId: string, local: boolean): MessageItem {
  return { kind: 'message', itemId: messageItemId(role, messageId), role, messageId, parts: [], rev: 0, local };
}

/**
 * Appends `block` to `m` (which counts `used` characters) within `limit`. Returns the message's
 * new size, whether anything was appended, and whether this append truncated it the first time.
 */
export function appendBlock(m: WithParts, used: number, block: ContentBlock, limit: number): { size: number; appended: boolean; newlyTruncated: boolean } {
  const fit = fitBlock(block, limit - used);
  if (fit.block) appendPart(m.parts, fit.block);
  const dropped = fit.droppedChars > 0 || fit.droppedBlocks > 0;
  const newlyTruncated = dropped && !m.truncated;
  if (dropped) m.truncated = noteDrop(m.truncated, limit, { chars: fit.droppedChars, blocks: fit.droppedBlocks });
  return { size: used + fit.size, appended: fit.block !== undefined, newlyTruncated };
}

/** Replaces the parts of `m` (a v2 upsert) within `limit`; the truncation record starts over. Returns the size. */
export function replaceParts(m: WithParts, blocks: readonly ContentBlock[], limit: number, metaSize: number): number {
  m.parts = [];
  delete m.truncated;
  let size = metaSize;
  for (const b of blocks) size = appendBlock(m, size, b, limit).size;
  return size;
}

/** Sets `_meta` when it fits the raw limit (else drops it and notes it). Returns its size. */
export function setMessageMeta(m: MessageItem, meta: Meta, rawLimit: number, limit: number): number {
  const kept = keepRaw(meta, rawLimit);
  m._meta = kept.value;
  if (meta !== undefined && kept.value === undefined) m.truncated = noteDrop(m.truncated, limit, { field: '_meta' });
  return kept.size;
}

function appendPart(parts: MessagePart[], block: ContentBlock): void {
  if (block.type === 'text') {
    const last = parts[parts.length - 1];
    if (last?.type === 'text') {
      last.chunks.push(block.text);
      last.length += block.text.length;
      if (last.chunks.length - last.joined >= TEXT_JOIN_AT) {
        last.chunks.push(last.chunks.splice(last.joined).join(''));
        last.joined = last.chunks.length;
      }
    } else parts.push({ type: 'text', chunks: [block.text], length: block.text.length, joined: 0 });
    return;
  }
  parts.push({ type: 'block', block });
}

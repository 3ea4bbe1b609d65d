// A plan step's id and note, where the agent sends them in the entry's `_meta` (the odek plan
// model: a short model-chosen id such as "s1", and an optional one-line note, e.g. why a step is
// blocked). Keys read, first one set wins:
//   id:   `_meta.id`, `_meta.stepId`, `_meta.step_id`: a string of 1–32 characters without
//         whitespace, brackets or backticks (odek's rule, plus backticks so an export can quote it);
//         any other value is not shown as an id (it stays in the raw JSON).
//   note: `_meta.note`: a string, flattened to one line and cut at 500 characters.
// Agent text: shown as plain text only (labels, descriptions, plain tooltips, escaped exports).
import type { Meta } from '../protocol/domain';

export interface StepMeta {
  readonly id?: string;
  readonly note?: string;
}

export const STEP_ID_KEYS = ['id', 'stepId', 'step_id'] as const;
export const NOTE_MAX = 500;
const ID_RE = /^[^\s[\]`]{1,32}$/;

export function stepMeta(meta: Meta | null | undefined): StepMeta {
  if (!meta) return {};
  let id: string | undefined;
  for (const k of STEP_ID_KEYS) {
    const v = meta[k];
    if (typeof v === 'string' && v !== '') {
      id = ID_RE.test(v) ? v : undefined;
      break;
    }
  }
  const raw = meta.note;
  // Bounded before any scanning: a note may be megabytes long.
  const note = typeof raw === 'string' ? flatten(raw.slice(0, NOTE_MAX * 4), NOTE_MAX) : undefined;
  return { ...(id ? { id } : {}), ...(note ? { note } : {}) };
}

function flatten(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1).trimEnd()}…`;
}

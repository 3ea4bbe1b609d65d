// What the user is shown for each option of a permission request, and what a pick means.
//
// Contract:
// - `optionPresentation(options)` returns one view per option, in the agent's order. Each `label`
//   starts with the option's KIND in our words ("Allow once", "Always allow", "Reject once",
//   "Always reject", or `Unknown kind "…"`), then the agent's name in quotes: `Allow once — "OK"`.
//   The agent's name can never forge that structure: control and invisible characters are dropped,
//   `"` becomes `'`, `⚠` becomes `!`, and it is cut at NAME_MAX characters.
// - Labels are unique, even when names repeat: repeated labels get ` (#n)`, n being the option's
//   position. A quick pick or notification maps the label back with `viewForLabel`; nothing is ever
//   looked up by the agent's name.
// - `contradicts`: the name says the opposite of the kind (an allow kind named "Reject", "Don't
//   run", "Cancel"…; a reject kind named "OK", "Run", "Continue"…; a `*_once` kind named "Always
//   allow" or a `*_always` kind named "Just this once"). Such an option is labelled with
//   ` ⚠ name contradicts kind`, never creates a rule and is never picked by a rule.
// - `ambiguousId`: another option has the same optionId with a different kind; such options never
//   create a rule either, and `outcomeFor` answers a reject pick `cancelled` (an agent must not treat
//   `cancelled` as approval, while the shared id might be read as the allow option).
// - Unknown kinds (future ACP variants) are shown as such, never create rules, never picked by rules.
// - English wording only; a name in another language is shown as is and never flagged.
import { english, type L10n } from '../common/l10n';
import type { PermissionOption, PermissionOutcome } from '../protocol/domain';
import { isRefusedChar } from './shellWords';

export const NAME_MAX = 60;
const SCAN_MAX = 200;

export type KnownOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
export const KIND_LABEL: Record<KnownOptionKind, string> = {
  allow_once: 'Allow once',
  allow_always: 'Always allow',
  reject_once: 'Reject once',
  reject_always: 'Always reject',
};

export interface OptionView {
  /** Position in the agent's list. */
  index: number;
  optionId: string;
  /** `unknown` for a kind this client does not know (the raw kind is in `rawKind`). */
  kind: KnownOptionKind | 'unknown';
  rawKind: string;
  grants: 'allow' | 'reject' | 'unknown';
  /** The agent's name as shown (cleaned, cut). */
  name: string;
  /** Unique among the views of one request. */
  label: string;
  contradicts: boolean;
  ambiguousId: boolean;
  /** For a tooltip or detail line: why the option is flagged. */
  warning?: string;
  /** Only an `allow_always` option that is neither contradicting nor ambiguous. */
  mayCreateRule: boolean;
  /** Whether a rule may answer with this option (an allow kind, not flagged). */
  mayAutoPick: boolean;
}

const isKnown = (k: string): k is KnownOptionKind => Object.hasOwn(KIND_LABEL, k);

/** The agent's text as it may be shown inside our quotes. */
export function cleanName(raw: string, max = NAME_MAX): string {
  let out = '';
  for (const ch of String(raw).slice(0, SCAN_MAX * 2)) {
    const c = ch.codePointAt(0)!;
    out += isRefusedChar(c) || ch === '\t' ? ' ' : ch === '"' ? "'" : ch === '⚠' ? '!' : ch;
  }
  out = out.split(' ').filter(Boolean).join(' ');
  return out.length > max ? `${out.slice(0, max - 1)}…` : out;
}

const REJECT_WORDS = new Set(
  'reject rejected deny denied no nope nah n cancel dont not never block stop refuse decline skip abort disallow forbid halt dismiss veto prevent ignore'.split(
    ' ',
  ),
);
const ALLOW_WORDS = new Set(
  'allow allowed yes yep y ok okay approve approved accept proceed run continue confirm permit grant go sure execute do agree apply trust enable'.split(' '),
);
/** Negations that do not reject: "Yes, and don't ask again". */
const BENIGN = [
  ['dont', 'ask'],
  ['do', 'not', 'ask'],
  ['never', 'ask'],
  ['dont', 'prompt'],
  ['do', 'not', 'prompt'],
  ['never', 'prompt'],
  ['without', 'asking'],
  ['stop', 'asking'],
  ['no', 'longer', 'ask'],
  ['no', 'more', 'prompts'],
  ['dont', 'confirm'],
  ['do', 'not', 'confirm'],
];
const LASTING_WORDS = new Set('always forever permanently permanent all remember session never'.split(' '));
const LASTING_PHRASES = [...BENIGN, ['auto', 'accept'], ['auto', 'approve'], ['from', 'now', 'on'], ['every', 'time']];
const ONCE_WORDS = new Set(['once', 'onetime']);
const ONCE_PHRASES = [
  ['this', 'time'],
  ['one', 'time'],
  ['just', 'this'],
  ['only', 'this'],
];

/** Lowercase ASCII words of a name; apostrophes removed ("don't" → "dont"). */
export function nameWords(name: string): string[] {
  const s = String(name).slice(0, SCAN_MAX).normalize('NFKC').toLowerCase();
  let cur = '';
  const words: string[] = [];
  for (const ch of s) {
    if (ch === "'" || ch === '’' || ch === 'ʼ') continue;
    if (ch >= 'a' && ch <= 'z') {
      cur += ch;
      continue;
    }
    if (cur) words.push(cur);
    cur = '';
  }
  if (cur) words.push(cur);
  return words;
}

const phraseAt = (w: readonly string[], i: number, p: readonly string[]): boolean => p.every((x, j) => w[i + j] === x);

export interface NameReading {
  polarity: 'allow' | 'reject' | 'neutral';
  lasting: boolean;
  once: boolean;
}

/** What an option's name claims: allow or reject, once or lasting. */
export function readName(name: string): NameReading {
  const w = nameWords(name);
  let lasting = false;
  let once = false;
  let allow = false;
  let reject = false;
  for (let i = 0; i < w.length; i++) {
    if (LASTING_WORDS.has(w[i]!) || LASTING_PHRASES.some((p) => phraseAt(w, i, p))) lasting = true;
    if (ONCE_WORDS.has(w[i]!) || ONCE_PHRASES.some((p) => phraseAt(w, i, p))) once = true;
    const benign = BENIGN.find((p) => phraseAt(w, i, p));
    if (benign) {
      i += benign.length - 1;
      continue;
    }
    if (REJECT_WORDS.has(w[i]!)) reject = true;
    else if (ALLOW_WORDS.has(w[i]!)) allow = true;
  }
  // A negation wins: "Don't allow", "No, continue without it" reject.
  return { polarity: reject ? 'reject' : allow ? 'allow' : 'neutral', lasting, once };
}

const CONTRA_REFUSAL = 'its name sounds like a refusal, but choosing it ALLOWS the action';
const CONTRA_APPROVAL = 'its name sounds like an approval, but choosing it REJECTS the action';
const CONTRA_ALWAYS = 'its name says "always", but it only answers this once';
const CONTRA_ONCE = 'its name says "once", but it is a LASTING answer';

/** Why a name contradicts a kind (English), or undefined. */
export function contradiction(kind: KnownOptionKind, name: string): string | undefined {
  const r = readName(name);
  const allows = kind.startsWith('allow');
  if (allows && r.polarity === 'reject') return CONTRA_REFUSAL;
  if (!allows && r.polarity === 'allow') return CONTRA_APPROVAL;
  if (kind.endsWith('_once') && r.lasting && !r.once) return CONTRA_ALWAYS;
  if (kind.endsWith('_always') && r.once && !r.lasting) return CONTRA_ONCE;
  return undefined;
}

/** The label of a known kind ("Allow once"), in `l10n`'s words. */
export function kindLabel(kind: KnownOptionKind, l10n: L10n = english): string {
  switch (kind) {
    case 'allow_once':
      return l10n.t('Allow once');
    case 'allow_always':
      return l10n.t('Always allow');
    case 'reject_once':
      return l10n.t('Reject once');
    case 'reject_always':
      return l10n.t('Always reject');
  }
}

/** `l10n` words the labels and warnings (the agent's names are shown as they are). */
/** contradiction()'s reason in `l10n`'s words. */
function contradictionText(why: string, l10n: L10n): string {
  switch (why) {
    case CONTRA_REFUSAL:
      return l10n.t('its name sounds like a refusal, but choosing it ALLOWS the action');
    case CONTRA_APPROVAL:
      return l10n.t('its name sounds like an approval, but choosing it REJECTS the action');
    case CONTRA_ALWAYS:
      return l10n.t('its name says "always", but it only answers this once');
    case CONTRA_ONCE:
      return l10n.t('its name says "once", but it is a LASTING answer');
    default:
      return why;
  }
}

export function optionPresentation(options: readonly PermissionOption[], l10n: L10n = english): OptionView[] {
  const kindsById = new Map<string, Set<string>>();
  for (const o of options) kindsById.set(o.optionId, (kindsById.get(o.optionId) ?? new Set()).add(o.kind));
  const views = options.map((o, index): OptionView => {
    const kind = isKnown(o.kind) ? o.kind : 'unknown';
    const name = cleanName(o.name);
    const why = kind === 'unknown' ? undefined : contradiction(kind, o.name);
    const ambiguousId = (kindsById.get(o.optionId)?.size ?? 0) > 1;
    const head = kind === 'unknown' ? l10n.t('Unknown kind "{0}"', cleanName(o.kind, 30)) : kindLabel(kind, l10n);
    // A name that says exactly the kind adds nothing: "Allow once", not "Allow once — "Allow once"".
    const mark = why ? l10n.t(' ⚠ name contradicts kind') : '';
    const label = name.toLowerCase() === head.toLowerCase() ? head : `${head} — ${name ? `"${name}"` : l10n.t('(no name)')}${mark}`;
    const warnings = [
      why && l10n.t('The agent calls this option "{0}", but {1}.', name, contradictionText(why, l10n)),
      ambiguousId && l10n.t('Another option of this request has the same id with a different kind: the agent cannot tell them apart.'),
      kind === 'unknown' && l10n.t('This client does not know the option kind "{0}": it is sent as chosen and never creates a rule.', cleanName(o.kind, 30)),
    ].filter((x): x is string => typeof x === 'string');
    const grants = kind === 'unknown' ? 'unknown' : kind.startsWith('allow') ? 'allow' : 'reject';
    const flagged = why !== undefined || ambiguousId;
    return {
      index,
      optionId: o.optionId,
      kind,
      rawKind: o.kind,
      grants,
      name,
      label,
      contradicts: why !== undefined,
      ambiguousId,
      ...(warnings.length ? { warning: warnings.join(' ') } : {}),
      mayCreateRule: kind === 'allow_always' && !flagged,
      mayAutoPick: grants === 'allow' && !flagged,
    };
  });
  const count = new Map<string, number>();
  for (const v of views) count.set(v.label, (count.get(v.label) ?? 0) + 1);
  for (const v of views) if (count.get(v.label)! > 1) v.label = `${v.label} (#${v.index + 1})`;
  return views;
}

/** The view whose label is exactly `label` (labels are unique), or undefined. */
export function viewForLabel(views: readonly OptionView[], label: string): OptionView | undefined {
  return views.find((v) => v.label === label);
}

/** The answer for a pick: the option's id, except a reject whose id is shared with another kind. */
export function outcomeFor(view: OptionView): PermissionOutcome {
  if (view.ambiguousId && view.grants !== 'allow') return { outcome: 'cancelled' };
  return { outcome: 'selected', optionId: view.optionId };
}

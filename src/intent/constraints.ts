// Pinned-argument constraints: eq, in, glob, regex, lte, gte.
//
// Arguments come from the agent (untrusted) and patterns from the plan, so nothing here may take
// unbounded time: globs are matched by a small position-set automaton (O(pattern × value), no
// regex backtracking), regexes are refused when they look catastrophic, and long values are not
// checked at all.
import type { ArgConstraint } from './schema';
import { english, type L10n } from '../common/l10n';

/** `why` is a predicate about the argument, in the user's words (`must equal "x"`): its sentence names the argument. */
export type ConstraintResult =
  | { ok: true }
  | { ok: false; why: string }
  /** The constraint could not be evaluated safely; the call is neither in nor out of the plan. */
  | { ok: 'unchecked'; why: string };

/** Longest string value matched against a glob or a regex. */
export const MAX_MATCHED_LENGTH = 10_000;
/** Longest regex pattern that is run. */
export const MAX_RUN_REGEX_LENGTH = 256;

export function checkConstraint(c: ArgConstraint, value: unknown, l10n: L10n = english): ConstraintResult {
  if ('eq' in c) return jsonEqual(value, c.eq) ? { ok: true } : { ok: false, why: l10n.t('must equal {0}', preview(c.eq)) };
  if ('in' in c) return c.in.some((v) => jsonEqual(value, v)) ? { ok: true } : { ok: false, why: l10n.t('must be one of {0}', preview(c.in)) };
  if ('lte' in c)
    return numberCheck(
      value,
      (n) => n <= c.lte,
      () => l10n.t('must be at most {0}', c.lte),
      l10n,
    );
  if ('gte' in c)
    return numberCheck(
      value,
      (n) => n >= c.gte,
      () => l10n.t('must be at least {0}', c.gte),
      l10n,
    );
  if ('glob' in c)
    return stringCheck(value, l10n, (s) => (globMatch(c.glob, s) ? { ok: true } : { ok: false, why: l10n.t('must match the glob {0}', preview(c.glob)) }));
  return stringCheck(value, l10n, (s) => regexCheck(c.regex, s, l10n));
}

function numberCheck(value: unknown, test: (n: number) => boolean, why: () => string, l10n: L10n): ConstraintResult {
  if (typeof value !== 'number' || !Number.isFinite(value)) return { ok: false, why: l10n.t('is not a number') };
  return test(value) ? { ok: true } : { ok: false, why: why() };
}

function stringCheck(value: unknown, l10n: L10n, test: (s: string) => ConstraintResult): ConstraintResult {
  if (typeof value !== 'string') return { ok: false, why: l10n.t('is not a string') };
  if (value.length > MAX_MATCHED_LENGTH) return { ok: 'unchecked', why: l10n.t('is longer than {0} characters', MAX_MATCHED_LENGTH) };
  return test(value);
}

/** Deep equality of JSON values (object key order does not matter). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  return ak.length === bk.length && ak.every((k) => Object.hasOwn(bo, k) && jsonEqual(ao[k], bo[k]));
}

// ---------------------------------------------------------------- glob

type GlobToken = { t: 'char'; c: string } | { t: 'any1' } | { t: 'star' } | { t: 'globstar' } | { t: 'globstarDir' };

/**
 * `*` matches any run of characters without `/`, `?` one character other than `/`, `**` any run
 * including `/`; `**` followed by `/` at the start of a segment also matches zero directories.
 * Everything else is literal. The whole value must match.
 */
export function globMatch(pattern: string, value: string): boolean {
  const tokens = tokenizeGlob(pattern);
  const s = Array.from(value);
  let set: Uint8Array = new Uint8Array(s.length + 1);
  set[0] = 1;
  for (const tok of tokens) {
    set = step(tok, set, s);
    if (!set.includes(1)) return false;
  }
  return set[s.length] === 1;
}

function tokenizeGlob(pattern: string): GlobToken[] {
  const p = Array.from(pattern);
  const out: GlobToken[] = [];
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '*' && p[i + 1] === '*') {
      while (p[i + 1] === '*') i++;
      const atSegmentStart = out.length === 0 || (out[out.length - 1].t === 'char' && (out[out.length - 1] as { c: string }).c === '/');
      if (atSegmentStart && p[i + 1] === '/') {
        out.push({ t: 'globstarDir' });
        i++;
      } else out.push({ t: 'globstar' });
    } else if (p[i] === '*') out.push({ t: 'star' });
    else if (p[i] === '?') out.push({ t: 'any1' });
    else out.push({ t: 'char', c: p[i] });
  }
  return out;
}

function step(tok: GlobToken, set: Uint8Array, s: string[]): Uint8Array {
  const n = s.length;
  const next = new Uint8Array(n + 1);
  let reach = false; // for star/globstar: a reachable start lies at or before i
  for (let i = 0; i <= n; i++) {
    switch (tok.t) {
      case 'char':
        if (set[i] && i < n && s[i] === tok.c) next[i + 1] = 1;
        break;
      case 'any1':
        if (set[i] && i < n && s[i] !== '/') next[i + 1] = 1;
        break;
      case 'star':
        if (set[i]) reach = true;
        if (reach) next[i] = 1;
        if (i < n && s[i] === '/') reach = false;
        break;
      case 'globstar':
        if (set[i]) reach = true;
        if (reach) next[i] = 1;
        break;
      case 'globstarDir':
        if (set[i]) {
          reach = true;
          next[i] = 1;
        }
        if (reach && i < n && s[i] === '/') next[i + 1] = 1;
        break;
    }
  }
  return next;
}

// ---------------------------------------------------------------- regex

function regexCheck(pattern: string, value: string, l10n: L10n): ConstraintResult {
  const unsafe = regexHazard(pattern, l10n);
  if (unsafe) return { ok: 'unchecked', why: l10n.t('the pattern {0} was not run: {1}', preview(pattern), unsafe) };
  let re: RegExp;
  try {
    re = new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return { ok: 'unchecked', why: l10n.t('the pattern {0} is not a valid regular expression here', preview(pattern)) };
  }
  return re.test(value) ? { ok: true } : { ok: false, why: l10n.t('must match the pattern {0}', preview(pattern)) };
}

/**
 * Why a pattern may backtrack catastrophically, or undefined. Refuses long patterns, back
 * references, lookarounds and quantified groups that contain an unbounded quantifier or an
 * alternation (`(a+)+`, `(a|a)*`).
 */
export function regexHazard(pattern: string, l10n: L10n = english): string | undefined {
  if (pattern.length > MAX_RUN_REGEX_LENGTH) return l10n.t('longer than {0} characters', MAX_RUN_REGEX_LENGTH);
  const groups: { risky: boolean }[] = [{ risky: false }];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\') {
      const nx = pattern[i + 1] ?? '';
      if (/[1-9]/.test(nx) || nx === 'k') return l10n.t('back references are not run');
      i++;
    } else if (ch === '[') {
      i = skipClass(pattern, i);
    } else if (ch === '(') {
      if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i) || pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) {
        return l10n.t('lookarounds are not run');
      }
      groups.push({ risky: false });
    } else if (ch === ')') {
      const inner = groups.pop();
      if (!inner || groups.length === 0) return l10n.t('unbalanced parentheses');
      const quantified = isQuantifier(pattern, i + 1);
      if (quantified && inner.risky) return l10n.t('a repeated group contains a repetition or an alternation');
      if (inner.risky || quantified) groups[groups.length - 1].risky = true;
    } else if (ch === '|') {
      groups[groups.length - 1].risky = true;
    } else if (isUnboundedQuantifier(pattern, i)) {
      groups[groups.length - 1].risky = true;
    }
  }
  return groups.length === 1 ? undefined : l10n.t('unbalanced parentheses');
}

function skipClass(p: string, start: number): number {
  for (let i = start + 1; i < p.length; i++) {
    if (p[i] === '\\') i++;
    else if (p[i] === ']' && i > start + 1) return i;
  }
  return p.length;
}

/** A quantifier that repeats (`?` only makes its atom optional). */
function isQuantifier(p: string, i: number): boolean {
  return p[i] === '*' || p[i] === '+' || (p[i] === '{' && /^\{\d+(,\d*)?\}/.test(p.slice(i, i + 24)));
}

function isUnboundedQuantifier(p: string, i: number): boolean {
  return p[i] === '*' || p[i] === '+' || (p[i] === '{' && /^\{\d+,\}/.test(p.slice(i, i + 24)));
}

/** A short, single-line rendering of a constraint operand for messages. */
export function preview(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

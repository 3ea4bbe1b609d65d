// What the user typed into an elicitation form, checked against the form and turned into the
// answer's content: messages for people per field, defaults, types (numbers parsed, dates in
// RFC 3339). Pure and linear in the input; shared by the webview (as the user types) and the
// broker (the final say before anything is sent). An agent's `pattern` is shown as a hint and not
// run here: a regular expression from an agent may take exponential time.
import { english, type L10n } from '../common/l10n';
import { ELICITATION_LIMITS, type ElicitationField, type ElicitationValue } from '../protocol/elicitation';

/** What checking needs of a field (a view may carry an unknown field's raw schema as text). */
export type CheckableField = Exclude<ElicitationField, { kind: 'unknown' }> | { kind: 'unknown'; name: string; required: boolean; rawType: string };
export interface CheckableForm {
  readonly fields: readonly CheckableField[];
}

/** A field's raw input: text for strings, numbers and choices; a flag; the picked values. */
export type RawValue = string | boolean | string[];
export type RawValues = Record<string, RawValue>;

export type FormCheck = { ok: true; content: Record<string, ElicitationValue> } | { ok: false; errors: Record<string, string> };

/** The inputs a form starts with (its defaults). */
export function initialValues(form: CheckableForm): RawValues {
  const v: RawValues = {};
  for (const f of form.fields) {
    switch (f.kind) {
      case 'string':
      case 'choice':
        v[f.name] = f.default ?? '';
        break;
      case 'number':
      case 'integer':
        v[f.name] = f.default === null ? '' : String(f.default);
        break;
      case 'boolean':
        v[f.name] = f.default ?? false;
        break;
      case 'multi':
        v[f.name] = [...f.default];
        break;
      case 'unknown':
        break;
    }
  }
  return v;
}

/** Checks every field; the content holds only fields with a value (and every boolean). */
/** `l10n` words the messages (English without; the webview passes its strings table). */
export function checkForm(form: CheckableForm, raw: RawValues, l10n: L10n = english): FormCheck {
  const content: Record<string, ElicitationValue> = {};
  const errors: Record<string, string> = {};
  for (const f of form.fields) {
    const r = checkField(f, Object.prototype.hasOwnProperty.call(raw, f.name) ? raw[f.name] : undefined, l10n);
    if (typeof r === 'object' && r !== null && 'error' in r) errors[f.name] = r.error;
    else if (r !== undefined) content[f.name] = r;
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}

type FieldResult = ElicitationValue | undefined | { error: string };

function text(v: RawValue | undefined): string {
  return typeof v === 'string' ? v : '';
}

function checkField(f: CheckableField, v: RawValue | undefined, l10n: L10n): FieldResult {
  switch (f.kind) {
    case 'boolean':
      return typeof v === 'boolean' ? v : (f.default ?? false);
    case 'multi':
      return checkMulti(f, Array.isArray(v) ? v : [], l10n);
    case 'unknown':
      return f.required ? { error: l10n.t('This field is of a kind this client cannot show ("{0}"); decline or cancel instead.', f.rawType) } : undefined;
    default:
      break;
  }
  const s = text(v);
  if (s === '') return f.required ? { error: l10n.t('Required.') } : undefined;
  if (s.length > ELICITATION_LIMITS.maxValueChars)
    return { error: l10n.t('At most {0} characters.', ELICITATION_LIMITS.maxValueChars.toLocaleString('en-US')) };
  switch (f.kind) {
    case 'choice':
      return f.options.some((o) => o.value === s) ? s : { error: l10n.t('Pick one of the choices.') };
    case 'number':
    case 'integer':
      return checkNumber(f, s, l10n);
    case 'string':
      return checkString(f, s, l10n);
  }
}

function checkNumber(f: Extract<ElicitationField, { kind: 'number' | 'integer' }>, s: string, l10n: L10n): FieldResult {
  if (s.length > 60) return { error: f.kind === 'integer' ? l10n.t('Enter a whole number.') : l10n.t('Enter a number.') };
  const n = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(s) ? Number(s) : NaN;
  if (!Number.isFinite(n)) return { error: f.kind === 'integer' ? l10n.t('Enter a whole number.') : l10n.t('Enter a number.') };
  if (f.kind === 'integer' && !Number.isSafeInteger(n)) return { error: l10n.t('Enter a whole number.') };
  if (f.minimum !== null && n < f.minimum) return { error: l10n.t('Must be at least {0}.', f.minimum) };
  if (f.maximum !== null && n > f.maximum) return { error: l10n.t('Must be at most {0}.', f.maximum) };
  return n;
}

function checkString(f: Extract<ElicitationField, { kind: 'string' }>, s: string, l10n: L10n): FieldResult {
  const length = [...s].length;
  if (f.minLength !== null && length < f.minLength)
    return { error: f.minLength === 1 ? l10n.t('At least 1 character.') : l10n.t('At least {0} characters.', f.minLength) };
  if (f.maxLength !== null && length > f.maxLength)
    return { error: f.maxLength === 1 ? l10n.t('At most 1 character.') : l10n.t('At most {0} characters.', f.maxLength) };
  switch (f.format) {
    case 'email':
      return isEmail(s) ? s : { error: l10n.t('Enter an email address, like name@example.com.') };
    case 'uri':
      return isUri(s) ? s : { error: l10n.t('Enter a full address, like https://example.com/page.') };
    case 'date':
      return isDate(s) ? s : { error: l10n.t('Enter a date as YYYY-MM-DD.') };
    case 'date-time':
      return dateTime(s) ?? { error: l10n.t('Enter a date and time, like 2026-12-01T18:00.') };
    default:
      return s;
  }
}

function checkMulti(f: Extract<ElicitationField, { kind: 'multi' }>, picked: string[], l10n: L10n): FieldResult {
  const allowed = new Set(f.options.map((o) => o.value));
  const values = [...new Set(picked.filter((p) => allowed.has(p)))];
  if (values.length === 0 && !f.required && f.minItems === null) return undefined;
  if (values.length === 0 && f.required) return { error: l10n.t('Choose at least one.') };
  if (f.minItems !== null && values.length < f.minItems) return { error: l10n.t('Choose at least {0}.', f.minItems) };
  if (f.maxItems !== null && values.length > f.maxItems) return { error: l10n.t('Choose at most {0}.', f.maxItems) };
  return values;
}

function isEmail(s: string): boolean {
  const at = s.indexOf('@');
  if (at < 1 || at !== s.lastIndexOf('@') || /\s/.test(s)) return false;
  const domain = s.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  return dot > 0 && dot < domain.length - 1;
}

function isUri(s: string): boolean {
  try {
    return /^[a-z][a-z0-9+.-]*:/i.test(s) && !!new URL(s);
  } catch {
    return false;
  }
}

function isDate(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return false;
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** RFC 3339: kept when it has an offset; a local time (a `datetime-local` input) becomes UTC. */
function dateTime(s: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/.test(s) || s.length > 40) return undefined;
  const t = Date.parse(s);
  if (Number.isNaN(t)) return undefined;
  return /([Zz]|[+-]\d{2}:\d{2})$/.test(s) ? s : new Date(t).toISOString();
}

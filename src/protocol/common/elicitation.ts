// `elicitation/create` and `elicitation/complete` on the wire, shared by the v1 and v2 adapters
// (the later-draft schemas give both versions the same shapes). Strict about the envelope (a
// message and a scope), lenient about the rest: malformed optional fields read as omitted, an
// unknown mode or property type is kept raw; a form past the bounds (ELICITATION_LIMITS) or a
// non-http(s) URL becomes `unusable` with the reason as data (ElicitationProblem; the views word
// it). Linear in the input.
import type { JsonObject } from '../domain';
import {
  ELICITATION_LIMITS as L,
  type ChoiceOption,
  type ElicitationField,
  type ElicitationForm,
  type ElicitationProblem,
  type ElicitationRequest,
  type ElicitationResponse,
  type ElicitationScope,
} from '../elicitation';
import { ProtocolShapeError } from './errors';
import { isObject } from './isObject';

const str = (v: unknown, max: number = L.maxTextChars): string | null => (typeof v === 'string' ? v.slice(0, max) : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const count = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);

const NONE = {} as const;
const isProblem = (v: object): v is ElicitationProblem => 'code' in v;

const bad = (issue: string, raw: unknown): ProtocolShapeError => new ProtocolShapeError('elicitation/create params', [issue], raw);

function scopeOf(p: JsonObject): ElicitationScope {
  if (typeof p.sessionId === 'string') return { type: 'session', sessionId: p.sessionId, toolCallId: typeof p.toolCallId === 'string' ? p.toolCallId : null };
  if (typeof p.requestId === 'string' || (typeof p.requestId === 'number' && Number.isInteger(p.requestId))) return { type: 'request', requestId: p.requestId };
  throw bad('neither a sessionId nor a requestId', p);
}

/** Depth of nested objects/arrays, stopping at `limit + 1` (iterative, visits each value once). */
function depthOver(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (d > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === 'object' && child !== null) stack.push([child, d + 1]);
  }
  return false;
}

/** The options of the choice field labelled `field`, or why they cannot be offered. */
function options(list: unknown, titled: boolean, field: string): ChoiceOption[] | ElicitationProblem {
  if (!Array.isArray(list) || list.length === 0) return { code: 'no-choices', data: { field } };
  if (list.length > L.maxOptions) return { code: 'too-many-options', data: { field, count: list.length, limit: L.maxOptions } };
  const out: ChoiceOption[] = [];
  for (const o of list) {
    if (!titled) {
      if (typeof o === 'string') out.push({ value: o, title: o.slice(0, L.maxLabelChars), description: null });
      continue;
    }
    if (isObject(o) && typeof o.const === 'string')
      out.push({ value: o.const, title: str(o.title, L.maxLabelChars) ?? o.const, description: str(o.description) });
  }
  return out.length ? out : { code: 'no-valid-choices', data: { field } };
}

function field(name: string, raw: unknown, required: boolean): ElicitationField | ElicitationProblem {
  if (!isObject(raw) || typeof raw.type !== 'string') return { code: 'field-without-type', data: { field: name.slice(0, 60) } };
  const base = { name, label: str(raw.title, L.maxLabelChars) ?? name.slice(0, L.maxLabelChars), description: str(raw.description), required };
  switch (raw.type) {
    case 'string': {
      if (raw.oneOf != null || raw.enum != null) {
        const opts = raw.oneOf != null ? options(raw.oneOf, true, base.label) : options(raw.enum, false, base.label);
        if (!Array.isArray(opts)) return opts;
        return { ...base, kind: 'choice', default: typeof raw.default === 'string' ? raw.default : null, options: opts };
      }
      return {
        ...base,
        kind: 'string',
        default: typeof raw.default === 'string' ? raw.default : null,
        minLength: count(raw.minLength),
        maxLength: count(raw.maxLength),
        pattern: str(raw.pattern, 1_000),
        format: str(raw.format, 40),
      };
    }
    case 'number':
    case 'integer':
      return { ...base, kind: raw.type, default: num(raw.default), minimum: num(raw.minimum), maximum: num(raw.maximum) };
    case 'boolean':
      return { ...base, kind: 'boolean', default: typeof raw.default === 'boolean' ? raw.default : null };
    case 'array': {
      const items = isObject(raw.items) ? raw.items : {};
      const opts = Array.isArray(items.anyOf) ? options(items.anyOf, true, base.label) : options(items.enum, false, base.label);
      if (!Array.isArray(opts)) return opts;
      const def = Array.isArray(raw.default) ? raw.default.filter((d): d is string => typeof d === 'string') : [];
      return { ...base, kind: 'multi', default: def, options: opts, minItems: count(raw.minItems), maxItems: count(raw.maxItems) };
    }
    default:
      return { ...base, kind: 'unknown', rawType: raw.type.slice(0, 100), raw };
  }
}

/** The requested schema as a form, or why it cannot be shown. */
export function decodeForm(schema: unknown): ElicitationForm | ElicitationProblem {
  if (!isObject(schema)) return { code: 'no-schema', data: NONE };
  const size = JSON.stringify(schema).length;
  if (size > L.maxSchemaBytes) return { code: 'schema-too-large', data: { kb: Math.ceil(size / 1024), limitKb: L.maxSchemaBytes / 1024 } };
  if (depthOver(schema, L.maxDepth)) return { code: 'schema-too-deep', data: { limit: L.maxDepth } };
  if (schema.type !== undefined && schema.type !== 'object') return { code: 'schema-not-object', data: NONE };
  const props = isObject(schema.properties) ? schema.properties : {};
  const names = Object.keys(props);
  if (names.length > L.maxFields) return { code: 'too-many-fields', data: { count: names.length, limit: L.maxFields } };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : []);
  const fields: ElicitationField[] = [];
  for (const name of names) {
    const f = field(name, props[name], required.has(name));
    if (isProblem(f)) return f;
    fields.push(f);
  }
  return { title: str(schema.title, L.maxLabelChars), description: str(schema.description), fields };
}

/**
 * `elicitation/create` params. Throws ProtocolShapeError (answer -32602) for a broken envelope; a
 * form or link that cannot be shown is `unusable`, its `problem` saying why (as data).
 */
export function decodeElicitation(params: unknown): ElicitationRequest {
  if (!isObject(params)) throw bad('not an object', params);
  if (typeof params.message !== 'string') throw bad('"message" must be a string', params);
  if (typeof params.mode !== 'string') throw bad('"mode" must be a string', params);
  const scope = scopeOf(params);
  const message = params.message.slice(0, L.maxTextChars);
  if (params.mode === 'form') {
    const form = decodeForm(params.requestedSchema);
    return isProblem(form) ? { scope, message, mode: 'unusable', requested: 'form', problem: form, raw: params } : { scope, message, mode: 'form', form };
  }
  if (params.mode === 'url') {
    if (typeof params.elicitationId !== 'string') throw bad('"elicitationId" must be a string', params);
    const problem = urlProblem(params.url);
    if (problem) return { scope, message, mode: 'unusable', requested: 'url', problem, raw: params };
    return { scope, message, mode: 'url', elicitationId: params.elicitationId, url: params.url as string };
  }
  return { scope, message, mode: 'unknown', rawMode: params.mode.slice(0, 100), raw: params };
}

/** Why a URL must not be offered (only absolute http(s) URLs are), or undefined. */
export function urlProblem(url: unknown): ElicitationProblem | undefined {
  if (typeof url !== 'string') return { code: 'url-missing', data: NONE };
  if (url.length > L.maxUrlChars) return { code: 'url-too-long', data: { length: url.length, limit: L.maxUrlChars } };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { code: 'url-invalid', data: NONE };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { code: 'url-not-web', data: { scheme: u.protocol.slice(0, 20) } };
  if (!u.hostname) return { code: 'url-no-host', data: NONE };
  return undefined;
}

/** `elicitation/complete` params → the elicitation id (undefined when malformed). */
export function decodeElicitationComplete(params: unknown): string | undefined {
  return isObject(params) && typeof params.elicitationId === 'string' ? params.elicitationId : undefined;
}

/** The result of `elicitation/create` (both versions). */
export function encodeElicitationResponse(r: ElicitationResponse): JsonObject {
  if (r.action === 'accept' && r.content !== undefined) return { action: 'accept', content: { ...r.content } };
  return { action: r.action };
}

// Shared zod helpers for the v1 and v2 schemas: open unions dispatched on their tag through a
// map (never tried in order), arrays that skip invalid items, fields that fall back to
// "omitted" when malformed, and `_meta` handling.
import * as z from 'zod';
import type { JsonObject, Meta } from '../domain';
import { ProtocolShapeError } from './errors';

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `_meta` as sent when it is an object; undefined when absent, null or malformed. */
export function metaOf(o: JsonObject): Meta {
  const m = o._meta;
  return isObject(m) ? m : undefined;
}

/** Copies `_meta` from the wire object onto `target` when it is valid (never adds an undefined key). */
export function withMeta<T extends object>(target: T, wire: JsonObject): T & { _meta?: Meta } {
  const m = metaOf(wire);
  if (m !== undefined) (target as T & { _meta?: Meta })._meta = m;
  return target;
}

/** Sets `target[key] = value` unless value is undefined (keeps "omitted" as a missing key). */
export function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

/** `x-deserialize-default-on-error`: a malformed value reads as omitted. */
export function soft<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

/** `x-deserialize-skip-invalid-items`: elements that fail `item` are dropped, the rest kept. */
export function lenientArray<T>(item: z.ZodType<T>) {
  return z.unknown().transform((v, ctx): T[] => {
    if (!Array.isArray(v)) {
      ctx.addIssue({ code: 'custom', message: 'expected an array' });
      return z.NEVER;
    }
    const out: T[] = [];
    for (const it of v) {
      const r = item.safeParse(it);
      if (r.success) out.push(r.data);
    }
    return out;
  });
}

/**
 * A union dispatched on the string at `key` through a map. A known tag must match its schema
 * (a malformed payload is an error, never demoted to "other"); an unknown tag goes to `other`,
 * which receives the object exactly as sent and returns undefined when even the "other" branch's
 * required fields are missing.
 */
export function taggedUnion<T, U>(
  key: string,
  variants: Record<string, z.ZodType<T>>,
  other: (raw: JsonObject, tag: string) => U | undefined,
) {
  const map = new Map<string, z.ZodType<T>>(Object.entries(variants));
  return z.unknown().transform((v, ctx): T | U => {
    const tag = isObject(v) ? v[key] : undefined;
    if (typeof tag !== 'string') {
      ctx.addIssue({ code: 'custom', message: `expected an object with a string "${key}"` });
      return z.NEVER;
    }
    const schema = map.get(tag);
    if (schema === undefined) {
      const o = other(v as JsonObject, tag);
      if (o !== undefined) return o;
      ctx.addIssue({ code: 'custom', message: `"${key}": "${tag}" is not known and the payload lacks the common fields` });
      return z.NEVER;
    }
    const r = schema.safeParse(v);
    if (r.success) return r.data;
    for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path });
    return z.NEVER;
  });
}

export function issuesOf(error: z.ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
}

/** Parses once; throws ProtocolShapeError naming `what` on failure. */
export function parseOrThrow<T>(schema: z.ZodType<T>, raw: unknown, what: string): T {
  const r = schema.safeParse(raw);
  if (!r.success) throw new ProtocolShapeError(what, issuesOf(r.error), raw);
  return r.data;
}

// Small reusable field schemas.
export const str = z.string();
export const optStr = soft(z.string().nullable());
export const uint = z.number().int().nonnegative();
/** Any JSON object (extra fields kept). */
export const anyObject = z.looseObject({});

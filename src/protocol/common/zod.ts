// Shared zod helpers for the v1 and v2 schemas: open unions dispatched on their tag through a
// map (never tried in order), arrays that skip invalid items, fields that fall back to
// "omitted" when malformed, and `_meta` handling.
import * as z from 'zod/mini';
import './zodMessages';
import type { JsonObject, Meta } from '../domain';
import { ProtocolShapeError } from './errors';
import { isObject } from './isObject';

export { isObject } from './isObject';

/** `_meta` as sent when it is an object; `null` (it clears what an earlier update set); undefined when absent or malformed. */
export function metaOf(o: JsonObject): Meta {
  const m = o._meta;
  return m === null ? null : isObject(m) ? m : undefined;
}

/** Copies `_meta` from the wire object onto `target` when it is an object or `null` (never adds an undefined key). */
export function withMeta<T extends object>(target: T, wire: JsonObject): T & { _meta?: Meta } {
  const m = metaOf(wire);
  if (m !== undefined) (target as T & { _meta?: Meta })._meta = m;
  return target;
}

/** Sets `target[key] = value` unless value is undefined (keeps "omitted" as a missing key). */
export function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

/**
 * Records a failure from inside a `z.transform` (whose context, in zod/mini, is the bare parse
 * payload) and returns `z.NEVER` for the transform to return.
 */
export function addIssue(ctx: z.core.ParsePayload, message: string, path?: PropertyKey[]): never {
  ctx.issues.push(path === undefined ? { code: 'custom', message, input: ctx.value } : { code: 'custom', message, path, input: ctx.value });
  return z.NEVER;
}

/** `x-deserialize-default-on-error`: a malformed value reads as omitted. */
export function soft<T extends z.ZodMiniType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}

/** `x-deserialize-skip-invalid-items`: elements that fail `item` are dropped, the rest kept. */
export function lenientArray<T>(item: z.ZodMiniType<T>) {
  return z.pipe(
    z.unknown(),
    z.transform((v, ctx): T[] => {
      if (!Array.isArray(v)) {
        return addIssue(ctx, 'expected an array');
      }
      const out: T[] = [];
      for (const it of v) {
        const r = item.safeParse(it);
        if (r.success) out.push(r.data);
      }
      return out;
    }),
  );
}

/**
 * A union dispatched on the string at `key` through a map. A known tag must match its schema
 * (a malformed payload is an error, never demoted to "other"); an unknown tag goes to `other`,
 * which receives the object exactly as sent and returns undefined when even the "other" branch's
 * required fields are missing.
 */
export function taggedUnion<T, U>(key: string, variants: Record<string, z.ZodMiniType<T>>, other: (raw: JsonObject, tag: string) => U | undefined) {
  const map = new Map<string, z.ZodMiniType<T>>(Object.entries(variants));
  return z.pipe(
    z.unknown(),
    z.transform((v, ctx): T | U => {
      const tag = isObject(v) ? v[key] : undefined;
      if (typeof tag !== 'string') {
        return addIssue(ctx, `expected an object with a string "${key}"`);
      }
      const schema = map.get(tag);
      if (schema === undefined) {
        const o = other(v as JsonObject, tag);
        if (o !== undefined) return o;
        return addIssue(ctx, `"${key}": "${tag}" is not known and the payload lacks the common fields`);
      }
      const r = schema.safeParse(v);
      if (r.success) return r.data;
      for (const i of r.error.issues) addIssue(ctx, i.message, i.path);
      return z.NEVER;
    }),
  );
}

export function issuesOf(error: z.core.$ZodError): string[] {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
}

/** Parses once; throws ProtocolShapeError naming `what` on failure. */
export function parseOrThrow<T>(schema: z.ZodMiniType<T>, raw: unknown, what: string): T {
  const r = schema.safeParse(raw);
  if (!r.success) throw new ProtocolShapeError(what, issuesOf(r.error), raw);
  return r.data;
}

// Small reusable field schemas.
export const str = z.string();
export const optStr = soft(z.nullable(z.string()));
export const uint = z.number().check(z.int(), z.nonnegative());
/** Any JSON object (extra fields kept). */
export const anyObject = z.looseObject({});

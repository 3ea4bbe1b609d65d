// A JSON object (not null, not an array), free of zod, so a part of the wire loaded on first use
// (elicitation.ts) needs no zod of its own.
import type { JsonObject } from '../domain';

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// Content blocks (both versions): known types are checked, any other type is kept whole.
import * as z from 'zod/mini';
import type { ContentBlock, JsonObject } from '../domain';
import { anyObject, optStr, put, soft, taggedUnion, withMeta } from './zod';

const annotations = soft(z.nullable(anyObject));

const text = z.pipe(
  z.looseObject({ text: z.string(), annotations }),
  z.transform((w): ContentBlock => {
    const b: Extract<ContentBlock, { type: 'text' }> = { type: 'text', text: w.text };
    put(b, 'annotations', w.annotations);
    return withMeta(b, w);
  }),
);

const image = z.pipe(
  z.looseObject({ data: z.string(), mimeType: z.string(), uri: optStr }),
  z.transform((w): ContentBlock => {
    const b: Extract<ContentBlock, { type: 'image' }> = { type: 'image', data: w.data, mimeType: w.mimeType };
    put(b, 'uri', w.uri);
    return withMeta(b, w);
  }),
);

const audio = z.pipe(
  z.looseObject({ data: z.string(), mimeType: z.string() }),
  z.transform((w): ContentBlock => withMeta({ type: 'audio', data: w.data, mimeType: w.mimeType }, w)),
);

const resourceLink = z.pipe(
  z.looseObject({
    uri: z.string(),
    name: z.string(),
    title: optStr,
    description: optStr,
    mimeType: optStr,
    size: soft(z.nullable(z.number().check(z.int()))),
  }),
  z.transform((w): ContentBlock => {
    const b: Extract<ContentBlock, { type: 'resource_link' }> = { type: 'resource_link', uri: w.uri, name: w.name };
    put(b, 'title', w.title);
    put(b, 'description', w.description);
    put(b, 'mimeType', w.mimeType);
    put(b, 'size', w.size);
    return withMeta(b, w);
  }),
);

/** Untagged: `{uri, text}` or `{uri, blob}`. */
const resourceContents = z
  .looseObject({
    uri: z.string(),
    text: z.optional(z.string()),
    blob: z.optional(z.string()),
    mimeType: optStr,
  })
  .check(z.refine((r) => r.text !== undefined || r.blob !== undefined, 'a resource needs "text" or "blob"'));

const resource = z.pipe(
  z.looseObject({ resource: resourceContents }),
  z.transform((w): ContentBlock => {
    const r: Extract<ContentBlock, { type: 'resource' }>['resource'] = { uri: w.resource.uri };
    put(r, 'text', w.resource.text);
    put(r, 'blob', w.resource.blob);
    put(r, 'mimeType', w.resource.mimeType);
    return withMeta({ type: 'resource', resource: r }, w);
  }),
);

function unknownBlock(raw: JsonObject, rawType: string): ContentBlock {
  return { type: 'unknown', rawType, raw };
}

/** One content block; an unknown `type` becomes `{type:'unknown', rawType, raw}`. */
export const contentBlock: z.ZodMiniType<ContentBlock> = taggedUnion(
  'type',
  {
    text,
    image,
    audio,
    resource_link: resourceLink,
    resource,
  },
  unknownBlock,
);

/** Wire form of a content block we send (unknown blocks go out exactly as received). */
export function encodeContentBlock(b: ContentBlock): JsonObject {
  if (b.type === 'unknown') return b.raw;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(b)) if (v !== undefined) out[k] = v;
  return out;
}

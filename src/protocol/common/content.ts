// Content blocks (both versions): known types are checked, any other type is kept whole.
import * as z from 'zod';
import type { ContentBlock, JsonObject } from '../domain';
import { anyObject, optStr, put, soft, taggedUnion, withMeta } from './zod';

const annotations = soft(anyObject.nullable());

const text = z.looseObject({ text: z.string(), annotations }).transform((w): ContentBlock => {
  const b: Extract<ContentBlock, { type: 'text' }> = { type: 'text', text: w.text };
  put(b, 'annotations', w.annotations);
  return withMeta(b, w);
});

const image = z.looseObject({ data: z.string(), mimeType: z.string(), uri: optStr }).transform((w): ContentBlock => {
  const b: Extract<ContentBlock, { type: 'image' }> = { type: 'image', data: w.data, mimeType: w.mimeType };
  put(b, 'uri', w.uri);
  return withMeta(b, w);
});

const audio = z.looseObject({ data: z.string(), mimeType: z.string() }).transform((w): ContentBlock =>
  withMeta({ type: 'audio', data: w.data, mimeType: w.mimeType }, w));

const resourceLink = z.looseObject({
  uri: z.string(), name: z.string(), title: optStr, description: optStr, mimeType: optStr,
  size: soft(z.number().int().nullable()),
}).transform((w): ContentBlock => {
  const b: Extract<ContentBlock, { type: 'resource_link' }> = { type: 'resource_link', uri: w.uri, name: w.name };
  put(b, 'title', w.title);
  put(b, 'description', w.description);
  put(b, 'mimeType', w.mimeType);
  put(b, 'size', w.size);
  return withMeta(b, w);
});

/** Untagged: `{uri, text}` or `{uri, blob}`. */
const resourceContents = z.looseObject({
  uri: z.string(), text: z.string().optional(), blob: z.string().optional(), mimeType: optStr,
}).refine((r) => r.text !== undefined || r.blob !== undefined, 'a resource needs "text" or "blob"');

const resource = z.looseObject({ resource: resourceContents }).transform((w): ContentBlock => {
  const r: Extract<ContentBlock, { type: 'resource' }>['resource'] = { uri: w.resource.uri };
  put(r, 'text', w.resource.text);
  put(r, 'blob', w.resource.blob);
  put(r, 'mimeType', w.resource.mimeType);
  return withMeta({ type: 'resource', resource: r }, w);
});

function unknownBlock(raw: JsonObject, rawType: string): ContentBlock {
  return { type: 'unknown', rawType, raw };
}

/** One content block; an unknown `type` becomes `{type:'unknown', rawType, raw}`. */
export const contentBlock: z.ZodType<ContentBlock> = taggedUnion('type', {
  text, image, audio, resource_link: resourceLink, resource,
}, unknownBlock);

/** Wire form of a content block we send (unknown blocks go out exactly as received). */
export function encodeContentBlock(b: ContentBlock): JsonObject {
  if (b.type === 'unknown') return b.raw;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(b)) if (v !== undefined) out[k] = v;
  return out;
}


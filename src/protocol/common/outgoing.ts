// Schemas of what the client sends that v1 and v2 share. They check our own encoders (tests) and
// the documentation examples of client messages; nothing is parsed with them at run time.
import * as z from 'zod';

export const meta = z.looseObject({}).nullish();
export const implementationOut = z.looseObject({ name: z.string(), title: z.string().nullish(), version: z.string(), _meta: meta });
export const nameValue = z.looseObject({ name: z.string(), value: z.string(), _meta: meta });
export const protocolVersion = z.number().int().min(0).max(65535);

const annotations = z.looseObject({
  audience: z.array(z.string()).nullish(), lastModified: z.string().nullish(), priority: z.number().nullish(), _meta: meta,
}).nullish();

/** Content blocks as the client sends them: known types only, checked strictly. */
export const contentBlockOut = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string(), annotations, _meta: meta }),
  z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string(), uri: z.string().nullish(), annotations, _meta: meta }),
  z.looseObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), annotations, _meta: meta }),
  z.looseObject({
    type: z.literal('resource_link'), uri: z.string(), name: z.string(), title: z.string().nullish(),
    description: z.string().nullish(), mimeType: z.string().nullish(), size: z.number().int().nullish(), annotations, _meta: meta,
  }),
  z.looseObject({
    type: z.literal('resource'), annotations, _meta: meta,
    resource: z.union([
      z.looseObject({ uri: z.string(), text: z.string(), mimeType: z.string().nullish(), _meta: meta }),
      z.looseObject({ uri: z.string(), blob: z.string(), mimeType: z.string().nullish(), _meta: meta }),
    ]),
  }),
]);

export const sessionIdOnly = z.looseObject({ sessionId: z.string(), _meta: meta });
export const methodIdOnly = z.looseObject({ methodId: z.string(), _meta: meta });
export const emptyParams = z.looseObject({ _meta: meta });
export const listSessionsParams = z.looseObject({ cwd: z.string().nullish(), cursor: z.string().nullish(), _meta: meta });

/** Our answer to `session/request_permission` (both versions use these two outcomes). */
export const permissionResponse = z.looseObject({
  outcome: z.discriminatedUnion('outcome', [
    z.looseObject({ outcome: z.literal('cancelled'), _meta: meta }),
    z.looseObject({ outcome: z.literal('selected'), optionId: z.string(), _meta: meta }),
  ]),
  _meta: meta,
});

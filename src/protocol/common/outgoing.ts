// Schemas of what the client sends that v1 and v2 share. They check our own encoders (tests) and
// the documentation examples of client messages; nothing is parsed with them at run time.
import * as z from 'zod/mini';
import './zodMessages';

export const meta = z.nullish(z.looseObject({}));
export const implementationOut = z.looseObject({ name: z.string(), title: z.nullish(z.string()), version: z.string(), _meta: meta });
export const nameValue = z.looseObject({ name: z.string(), value: z.string(), _meta: meta });
export const protocolVersion = z.number().check(z.int(), z.gte(0), z.lte(65535));

const annotations = z.nullish(
  z.looseObject({
    audience: z.nullish(z.array(z.string())),
    lastModified: z.nullish(z.string()),
    priority: z.nullish(z.number()),
    _meta: meta,
  }),
);

/** Content blocks as the client sends them: known types only, checked strictly. */
export const contentBlockOut = z.discriminatedUnion('type', [
  z.looseObject({ type: z.literal('text'), text: z.string(), annotations, _meta: meta }),
  z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string(), uri: z.nullish(z.string()), annotations, _meta: meta }),
  z.looseObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), annotations, _meta: meta }),
  z.looseObject({
    type: z.literal('resource_link'),
    uri: z.string(),
    name: z.string(),
    title: z.nullish(z.string()),
    description: z.nullish(z.string()),
    mimeType: z.nullish(z.string()),
    size: z.nullish(z.number().check(z.int())),
    annotations,
    _meta: meta,
  }),
  z.looseObject({
    type: z.literal('resource'),
    annotations,
    _meta: meta,
    resource: z.union([
      z.looseObject({ uri: z.string(), text: z.string(), mimeType: z.nullish(z.string()), _meta: meta }),
      z.looseObject({ uri: z.string(), blob: z.string(), mimeType: z.nullish(z.string()), _meta: meta }),
    ]),
  }),
]);

export const sessionIdOnly = z.looseObject({ sessionId: z.string(), _meta: meta });
export const methodIdOnly = z.looseObject({ methodId: z.string(), _meta: meta });
export const emptyParams = z.looseObject({ _meta: meta });
export const listSessionsParams = z.looseObject({ cwd: z.nullish(z.string()), cursor: z.nullish(z.string()), _meta: meta });

/** Our answer to `session/request_permission` (both versions use these two outcomes). */
export const permissionResponse = z.looseObject({
  outcome: z.discriminatedUnion('outcome', [
    z.looseObject({ outcome: z.literal('cancelled'), _meta: meta }),
    z.looseObject({ outcome: z.literal('selected'), optionId: z.string(), _meta: meta }),
  ]),
  _meta: meta,
});

/** Our answer to `elicitation/create` (both versions): accept with string/number/boolean/string[] values, decline, cancel. */
const elicitationValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);
export const elicitationResponse = z.discriminatedUnion('action', [
  z.looseObject({ action: z.literal('accept'), content: z.nullish(z.record(z.string(), elicitationValue)), _meta: meta }),
  z.looseObject({ action: z.literal('decline'), _meta: meta }),
  z.looseObject({ action: z.literal('cancel'), _meta: meta }),
]);

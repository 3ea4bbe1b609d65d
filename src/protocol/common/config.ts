// Session config options and commands: the parts v1 and v2 share (the id and group field names
// differ, so they are parameters).
import * as z from 'zod/mini';
import type { AvailableCommand, ConfigOption, ConfigSelectOption, JsonObject } from '../domain';
import { addIssue, isObject, lenientArray, optStr, put, soft, taggedUnion, withMeta } from './zod';

const selectOption = z.looseObject({ value: z.string(), name: z.string(), description: optStr });

type SelectWire = z.infer<typeof selectOption>;

function toSelectOption(w: SelectWire, group?: string): ConfigSelectOption {
  const o: ConfigSelectOption = { value: w.value, name: w.name };
  put(o, 'description', w.description);
  put(o, 'group', group);
  return o;
}

/**
 * `options`: a flat list or a list of groups (`{<groupKey>, name, options}`). Groups are
 * flattened; each option carries its group's display name in `group`.
 */
export function selectOptions(groupKey: 'group' | 'groupId') {
  const group = z.looseObject({ name: z.string(), options: lenientArray(selectOption) });
  return z.pipe(
    z.array(z.unknown()),
    z.transform((items, ctx): ConfigSelectOption[] => {
      const out: ConfigSelectOption[] = [];
      for (const it of items) {
        if (isObject(it) && Array.isArray(it.options)) {
          const g = group.safeParse(it);
          if (!g.success || typeof it[groupKey] !== 'string') return addIssue(ctx, 'malformed option group');
          for (const o of g.data.options) out.push(toSelectOption(o, g.data.name));
        } else {
          const o = selectOption.safeParse(it);
          if (!o.success) return addIssue(ctx, 'malformed select option');
          out.push(toSelectOption(o.data));
        }
      }
      return out;
    }),
  );
}

/** A config option union for one version: `idKey` is `id` (v1) or `configId` (v2). */
export function configOptionUnion(idKey: 'id' | 'configId', groupKey: 'group' | 'groupId'): z.ZodMiniType<ConfigOption> {
  const common = { [idKey]: z.string(), name: z.string(), description: optStr, category: optStr };
  const head = (w: JsonObject) => {
    const h: { id: string; name: string; description?: string | null; category?: string | null } = {
      id: w[idKey] as string,
      name: w.name as string,
    };
    put(h, 'description', w.description as string | null | undefined);
    put(h, 'category', w.category as string | null | undefined);
    return h;
  };
  const select = z.pipe(
    z.looseObject({ ...common, currentValue: z.string(), options: selectOptions(groupKey) }),
    z.transform((w): ConfigOption => withMeta({ kind: 'select', ...head(w), currentValue: w.currentValue, options: w.options }, w)),
  );
  const boolean = z.pipe(
    z.looseObject({ ...common, currentValue: z.boolean() }),
    z.transform((w): ConfigOption => withMeta({ kind: 'boolean', ...head(w), currentValue: w.currentValue }, w)),
  );
  const otherHead = z.looseObject({ [idKey]: z.string(), name: z.string() });
  return taggedUnion('type', { select, boolean }, (raw): ConfigOption | undefined =>
    otherHead.safeParse(raw).success ? { kind: 'unknown', id: raw[idKey] as string, name: raw.name as string, raw } : undefined,
  );
}

/** `input`: v1 `{hint}`, v2 `{type:"text", hint}`; an input of another type is kept raw (no hint). */
const commandInput = soft(z.nullable(z.looseObject({ hint: z.string() })));

/** An available command: v1 / v2 alpha.3 untagged, later v2 draft `{type:"command", …}` or other. */
export const availableCommand: z.ZodMiniType<AvailableCommand> = z.pipe(
  z.looseObject({
    name: z.string(),
    description: z.string(),
    input: z.optional(z.unknown()),
  }),
  z.transform((w) => {
    const c: AvailableCommand = { name: w.name, description: w.description };
    const known = isObject(w.input) && (w.input.type === undefined || w.input.type === 'text');
    const input = known ? commandInput.parse(w.input) : undefined;
    put(c, 'hint', input?.hint);
    if (!known && isObject(w.input)) c.input = w.input;
    return withMeta(c, w);
  }),
);

export const availableCommands = lenientArray(availableCommand);

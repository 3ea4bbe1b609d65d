// The Demo Agent's session modes (v1) and configuration options (both versions).

import type { ConfigOptionInfo } from '../wire/wire';

export const MODES = [
  { id: 'default', name: 'Default', description: 'Plan, then ask before each edit' },
  { id: 'plan', name: 'Plan', description: 'Planning only' },
] as const;

export const DEFAULT_MODE = 'default';

interface OptionSpec {
  id: string;
  name: string;
  description: string;
  category: string;
  kind: 'select' | 'boolean';
  choices?: { value: string; name: string }[];
  defaultValue: string | boolean;
}

const OPTIONS: readonly OptionSpec[] = [
  {
    id: 'model',
    name: 'Model',
    description: 'Which pretend model the demo uses (it changes nothing but the label)',
    category: 'model',
    kind: 'select',
    choices: [
      { value: 'demo-fast', name: 'Demo Fast' },
      { value: 'demo-thorough', name: 'Demo Thorough' },
    ],
    defaultValue: 'demo-fast',
  },
  {
    id: 'show_thoughts',
    name: 'Show thoughts',
    description: "Stream the agent's thoughts during a turn",
    category: '_demo',
    kind: 'boolean',
    defaultValue: true,
  },
];

export type ConfigValues = Record<string, string | boolean>;

export function defaultConfig(): ConfigValues {
  return Object.fromEntries(OPTIONS.map((o) => [o.id, o.defaultValue]));
}

/** The options to show. Boolean options need the v1 client capability `session.configOptions.boolean`. */
export function configInfo(values: ConfigValues, booleans: boolean): ConfigOptionInfo[] {
  return OPTIONS.filter((o) => o.kind === 'select' || booleans).map((o) => ({
    id: o.id,
    name: o.name,
    description: o.description,
    category: o.category,
    kind: o.kind,
    ...(o.choices ? { choices: o.choices } : {}),
    value: values[o.id] ?? o.defaultValue,
  }));
}

/** Checks a new value; returns an error text, or undefined when the value is acceptable. */
export function checkConfigValue(configId: string, value: unknown, booleans: boolean): string | undefined {
  const spec = OPTIONS.find((o) => o.id === configId);
  if (!spec || (spec.kind === 'boolean' && !booleans)) return `unknown config option "${configId}"`;
  if (spec.kind === 'boolean') return typeof value === 'boolean' ? undefined : `"${configId}" takes a boolean`;
  if (typeof value !== 'string' || !spec.choices?.some((c) => c.value === value)) return `"${String(value)}" is not a value of "${configId}"`;
  return undefined;
}

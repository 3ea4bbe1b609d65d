// The ACP Registry index (`registry.json`) validated with zod. A bad index (not JSON, no `agents`
// list) is an error; a bad entry is skipped and reported with its position and id, so one broken
// agent never hides the others. Objects are parsed loosely: fields added by later registry
// versions pass through. No `vscode`.
import * as z from 'zod/mini';
import '../protocol/common/zodMessages';

/** The platform keys of a `binary` distribution. */
export const PLATFORMS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type PlatformKey = (typeof PLATFORMS)[number];

/** At most this many entries are read from one index. */
export const MAX_ENTRIES = 2000;

const text = (max: number) => z.string().check(z.maxLength(max, `is longer than ${max} characters`));
const nonEmpty = (max: number, message: string) => z.string().check(z.maxLength(max, `is longer than ${max} characters`), z.minLength(1, message));
const isUrl = (s: string): boolean => {
  try {
    new URL(s);
    return true;
  } catch {
    return false;
  }
};
const args = z.array(text(4096), { error: '"args" must be a list of strings' }).check(z.maxLength(256, 'has more than 256 arguments'));
const env = z.record(text(256), text(32768), { error: '"env" must map names to string values' }).check(
  z.refine((e) => Object.keys(e).length <= 256, 'has more than 256 variables'),
  z.refine((e) => Object.keys(e).every((k) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(k)), 'has a variable name that is not a plain NAME'),
);
const url = text(4096).check(z.refine(isUrl, 'is not a URL'));

const binaryTarget = z.looseObject({
  archive: url,
  cmd: nonEmpty(1024, '"cmd" is empty'),
  args: z.optional(args),
  env: z.optional(env),
  sha256: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, '"sha256" must be 64 hexadecimal digits'))),
});
const plainWord = (what: string) => z.refine<string>((p) => !p.startsWith('-') && !/\s/.test(p), what);
const packageDist = z.looseObject({
  package: nonEmpty(512, '"package" is empty').check(plainWord('"package" must be a package name, not an option or a list')),
  cmd: z.optional(nonEmpty(256, '"cmd" is empty').check(plainWord('"cmd" must be one command name'))),
  args: z.optional(args),
  env: z.optional(env),
});

const entrySchema = z.looseObject({
  id: z.string({ error: 'needs an "id"' }).check(z.regex(/^[a-z][a-z0-9-]*$/, '"id" must be lowercase letters, digits and hyphens'), z.maxLength(100)),
  name: z.string({ error: 'needs a "name"' }).check(z.trim(), z.minLength(1, 'needs a "name"'), z.maxLength(200)),
  version: text(100).check(z.regex(/^[0-9]+\.[0-9]+\.[0-9]+/, '"version" must be a semantic version')),
  description: nonEmpty(2000, 'needs a "description"'),
  repository: z.optional(url),
  website: z.optional(url),
  authors: z.optional(z.array(text(200)).check(z.maxLength(50))),
  license: z.optional(text(200)),
  icon: z.optional(text(4096)),
  distribution: z.looseObject(
    {
      binary: z.optional(z.record(z.string(), z.unknown())),
      npx: z.optional(packageDist),
      uvx: z.optional(packageDist),
    },
    { error: 'needs a "distribution"' },
  ),
});

export type BinaryTarget = z.infer<typeof binaryTarget>;
export type PackageDistribution = z.infer<typeof packageDist>;

export interface RegistryEntry {
  id: string;
  name: string;
  version: string;
  description: string;
  repository?: string;
  website?: string;
  authors?: string[];
  license?: string;
  icon?: string;
  distribution: {
    /** Only the known platforms, each validated; unknown platform keys are ignored. */
    binary?: Partial<Record<PlatformKey, BinaryTarget>>;
    npx?: PackageDistribution;
    uvx?: PackageDistribution;
  };
}

export interface SkippedEntry {
  position: number;
  id?: string;
  reason: string;
}
export interface RegistryIndex {
  version: string;
  agents: RegistryEntry[];
  skipped: SkippedEntry[];
}

export class RegistryIndexError extends Error {}

const issues = (e: z.core.$ZodError): string => e.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ` : '') + i.message).join('; ');

/** Parses the index text. Throws RegistryIndexError (person-readable) when the index as a whole is unusable. */
export function parseRegistryIndex(textBody: string, source: string): RegistryIndex {
  let raw: unknown;
  try {
    raw = JSON.parse(textBody);
  } catch (e) {
    throw new RegistryIndexError(`The ACP Registry at ${source} did not send valid JSON (${(e as Error).message}). Check the setting "acp.registry.url".`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new RegistryIndexError(`The ACP Registry at ${source} sent JSON that is not a registry index (expected an object with an "agents" list).`);
  const o = raw as Record<string, unknown>;
  if (!Array.isArray(o.agents))
    throw new RegistryIndexError(`The ACP Registry at ${source} sent an index without an "agents" list. Check the setting "acp.registry.url".`);
  const version = typeof o.version === 'string' ? o.version : '';
  const skipped: SkippedEntry[] = [];
  const agents: RegistryEntry[] = [];
  const seen = new Set<string>();
  o.agents.slice(0, MAX_ENTRIES).forEach((item, i) => {
    const r = parseRegistryEntry(item);
    const id = typeof (item as { id?: unknown } | null)?.id === 'string' ? String((item as { id: string }).id).slice(0, 100) : undefined;
    if ('reason' in r) {
      skipped.push({ position: i + 1, ...(id ? { id } : {}), reason: r.reason });
      return;
    }
    if (seen.has(r.entry.id)) {
      skipped.push({ position: i + 1, id: r.entry.id, reason: 'the id is listed twice; the first entry is kept' });
      return;
    }
    seen.add(r.entry.id);
    agents.push(r.entry);
  });
  if (o.agents.length > MAX_ENTRIES) skipped.push({ position: MAX_ENTRIES + 1, reason: `only the first ${MAX_ENTRIES} entries are read` });
  return { version, agents, skipped };
}

/** One entry: the validated entry, or why it is skipped. */
export function parseRegistryEntry(item: unknown): { entry: RegistryEntry } | { reason: string } {
  const r = entrySchema.safeParse(item);
  if (!r.success) return { reason: issues(r.error) };
  const e = r.data;
  const binary: Partial<Record<PlatformKey, BinaryTarget>> = {};
  for (const [key, value] of Object.entries(e.distribution.binary ?? {})) {
    if (!(PLATFORMS as readonly string[]).includes(key)) continue;
    const t = binaryTarget.safeParse(value);
    if (!t.success) return { reason: `distribution.binary.${key}: ${issues(t.error)}` };
    binary[key as PlatformKey] = t.data;
  }
  const hasBinary = Object.keys(binary).length > 0;
  if (!hasBinary && !e.distribution.npx && !e.distribution.uvx) return { reason: 'its "distribution" has no binary, npx or uvx entry' };
  const { npx, uvx } = e.distribution;
  return {
    entry: {
      id: e.id,
      name: e.name,
      version: e.version,
      description: e.description,
      ...(e.repository ? { repository: e.repository } : {}),
      ...(e.website ? { website: e.website } : {}),
      ...(e.authors ? { authors: e.authors } : {}),
      ...(e.license ? { license: e.license } : {}),
      ...(e.icon ? { icon: e.icon } : {}),
      distribution: { ...(hasBinary ? { binary } : {}), ...(npx ? { npx } : {}), ...(uvx ? { uvx } : {}) },
    },
  };
}

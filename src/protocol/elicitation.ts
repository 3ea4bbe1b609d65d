// Elicitation, version-neutral: what an agent asks the user to fill in (a form) or to visit (a
// URL), and the answer. The adapters decode `elicitation/create` into an ElicitationRequest with
// decodeElicitation (common/elicitation.ts); v1 and v2 share the shape. No `vscode`.
import type { JsonObject } from './domain';

/** Bounds on what an agent may ask at once; a larger form is declined with the reason (ElicitationProblem). */
export const ELICITATION_LIMITS = {
  /** Fields of one form. */
  maxFields: 32,
  /** Options of one choice field. */
  maxOptions: 100,
  /** Characters of a message, title or description (longer ones are cut). */
  maxTextChars: 2_000,
  /** Characters of a label (field title, option title). */
  maxLabelChars: 200,
  /** Serialized size of the requested schema. */
  maxSchemaBytes: 64 * 1024,
  /** Nesting of the requested schema (a flat form is 4 deep: schema → properties → field → items). */
  maxDepth: 6,
  /** Characters of a URL. */
  maxUrlChars: 4_096,
  /** Characters of one answered string. */
  maxValueChars: 10_000,
} as const;

export interface ChoiceOption {
  value: string;
  title: string;
  description: string | null;
}

interface FieldBase {
  name: string;
  /** The field's title, else its name. */
  label: string;
  description: string | null;
  required: boolean;
}

export type ElicitationField =
  | (FieldBase & {
      kind: 'string';
      default: string | null;
      minLength: number | null;
      maxLength: number | null;
      pattern: string | null;
      /** `email`, `uri`, `date`, `date-time`, or another format (then only an annotation). */
      format: string | null;
    })
  /** A single-select string (`enum` or titled `oneOf`). */
  | (FieldBase & { kind: 'choice'; default: string | null; options: ChoiceOption[] })
  | (FieldBase & { kind: 'number' | 'integer'; default: number | null; minimum: number | null; maximum: number | null })
  | (FieldBase & { kind: 'boolean'; default: boolean | null })
  /** A multi-select array of strings. */
  | (FieldBase & { kind: 'multi'; default: string[]; options: ChoiceOption[]; minItems: number | null; maxItems: number | null })
  /** A property type this client does not know: shown raw, never rendered as an input. */
  | (FieldBase & { kind: 'unknown'; rawType: string; raw: JsonObject });

export interface ElicitationForm {
  title: string | null;
  description: string | null;
  fields: ElicitationField[];
}

export type ElicitationScope = { type: 'session'; sessionId: string; toolCallId: string | null } | { type: 'request'; requestId: string | number };

export type ElicitationRequest = {
  scope: ElicitationScope;
  message: string;
} & (
  | { mode: 'form'; form: ElicitationForm }
  | { mode: 'url'; elicitationId: string; url: string }
  /** A mode this client does not know (kept raw; never rendered as a form or a link). */
  | { mode: 'unknown'; rawMode: string; raw: JsonObject }
  /** A form or URL the client cannot show (too large, malformed, not http(s)); `problem` says why. */
  | { mode: 'unusable'; requested: 'form' | 'url'; problem: ElicitationProblem; raw: JsonObject }
);

/**
 * Why a form or link cannot be shown, as data: a code and its values. The views word it
 * (src/ui/elicitationWords.ts, through vscode.l10n), so a German window reads German; `field` is
 * the field's label (its title, else its name).
 */
export type ElicitationProblem =
  // The form's schema.
  | { readonly code: 'no-schema'; readonly data: Readonly<Record<string, never>> }
  | { readonly code: 'schema-too-large'; readonly data: { readonly kb: number; readonly limitKb: number } }
  | { readonly code: 'schema-too-deep'; readonly data: { readonly limit: number } }
  | { readonly code: 'schema-not-object'; readonly data: Readonly<Record<string, never>> }
  | { readonly code: 'too-many-fields'; readonly data: { readonly count: number; readonly limit: number } }
  // One field of it.
  | { readonly code: 'field-without-type'; readonly data: { readonly field: string } }
  | { readonly code: 'no-choices'; readonly data: { readonly field: string } }
  | { readonly code: 'too-many-options'; readonly data: { readonly field: string; readonly count: number; readonly limit: number } }
  | { readonly code: 'no-valid-choices'; readonly data: { readonly field: string } }
  // The link of a URL elicitation.
  | { readonly code: 'url-missing'; readonly data: Readonly<Record<string, never>> }
  | { readonly code: 'url-too-long'; readonly data: { readonly length: number; readonly limit: number } }
  | { readonly code: 'url-invalid'; readonly data: Readonly<Record<string, never>> }
  | { readonly code: 'url-not-web'; readonly data: { readonly scheme: string } }
  | { readonly code: 'url-no-host'; readonly data: Readonly<Record<string, never>> };

export type ElicitationValue = string | number | boolean | string[];

export type ElicitationResponse = { action: 'accept'; content?: Record<string, ElicitationValue> } | { action: 'decline' } | { action: 'cancel' };

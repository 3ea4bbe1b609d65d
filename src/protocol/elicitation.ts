// Elicitation, version-neutral: what an agent asks the user to fill in (a form) or to visit (a
// URL), and the answer. The adapters decode `elicitation/create` into an ElicitationRequest with
// decodeElicitation (common/elicitation.ts); v1 and v2 share the shape. No `vscode`.
import type { JsonObject } from './domain';

/** Bounds on what an agent may ask at once; a larger form is declined with a message for people. */
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
  | { mode: 'unusable'; requested: 'form' | 'url'; problem: string; raw: JsonObject }
);

export type ElicitationValue = string | number | boolean | string[];

export type ElicitationResponse = { action: 'accept'; content?: Record<string, ElicitationValue> } | { action: 'decline' } | { action: 'cancel' };

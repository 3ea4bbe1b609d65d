// Errors raised while decoding what an agent sent.

/** A message did not have the shape the schema requires (a known tag with a bad payload too). */
export class ProtocolShapeError extends Error {
  override readonly name = 'ProtocolShapeError';
  constructor(
    /** What was being parsed, e.g. `session/update params` or `session/new result`. */
    readonly what: string,
    /** Human-readable zod issues (`path: message`). */
    readonly issues: string[],
    /** The payload as received. */
    readonly raw: unknown,
  ) {
    super(`Malformed ${what}: ${issues.slice(0, 5).join('; ')}`);
  }
}

// The two ways checkpoints fail, each with a sentence for a person: git cannot be run at all
// (checkpoints are off, the caller falls back to what it saw on the wire), or one operation failed.

/** git could not be run (missing, not executable): checkpoints are off. */
export class GitMissingError extends Error {
  override readonly name = 'GitMissingError';
}

/** Any other failure of a checkpoint operation; the message is a sentence for a person. */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
}

// Why a checkpoint operation failed, as data (src/checkpoints/errors.ts): the views reach it here,
// never in the engine, and word it (src/ui/checkpointWords.ts).
export { checkpointReason, type CheckpointReason } from '../../checkpoints/errors';

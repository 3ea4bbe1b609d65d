// Why a remote agent's connection did not open, or ended (src/agents/remoteErrors.ts): the views
// word these reasons (src/ui/remoteWords.ts) and reach their type through here, as views reach
// nothing of agents/ directly.
export type { DropCause, RemoteReason } from '../agents/remoteErrors';

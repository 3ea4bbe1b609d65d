// Where a replayed recording's decoded outputs go: the stores, under the replay's own pseudo agent
// (`recording:<file name>`), exactly as a live agent's events do (the composition root's apply).
// Sessions are shown read-only; permission requests go to the conversation with their recorded
// answers, never to the permission broker. A recording creates at most MAX_REPLAYED_SESSIONS
// sessions (the first it names, a subagent's child included); what it says of any other session is
// dropped, and `summary()` tells how many it named. Free of `vscode` (src/recording/replays.ts
// shows the rest), so tests drive it with the real decoder and player.
import { MAX_SESSIONS_PER_FILE, SessionBudget } from '../common/sessionBudget';
import type { L10n } from '../common/l10n';
import type { SessionEvent } from '../protocol/domain';
import { ReplayDecoder } from './decoder';
import type { RecordingIndex } from './format';
import { ReplayPlayer, type ReplayPace, type ReplayScheduler } from './player';
import { sessionKey, type SessionStore } from '../state/sessionStore';
import type { Transcript } from '../state/transcript';
import type { ReplayOutput } from './decoder';

/** Sessions one replayed recording may create. */
export const MAX_REPLAYED_SESSIONS = MAX_SESSIONS_PER_FILE;

export interface ReplaySinkDeps {
  store: SessionStore;
  transcript: Transcript;
  /** The composition root's path for a live agent's events (all stores, in order). */
  apply(agentId: string, e: SessionEvent): void;
}

export interface ReplaySinkHooks {
  /** The recorded `initialize` answer chose this version. */
  connected(version: number): void;
  /** A session of the replay was first seen. */
  session(sessionId: string): void;
  /** A recorded line could not be decoded. */
  note(line: number, text: string): void;
}

/**
 * A recording's player, wired as every replay is: the decoder of the header's version decodes
 * only what the sink's session budget admits, and the player feeds the sink.
 */
export function replayPipeline(
  bytes: Buffer,
  index: RecordingIndex,
  sink: ReplaySink,
  pace: ReplayPace,
  schedule: ReplayScheduler,
  accept: () => boolean = () => true,
): ReplayPlayer {
  const decoder = new ReplayDecoder(index.header?.protocolVersion === 2 ? 2 : 1, (sessionId) => sink.admitSession(sessionId));
  return new ReplayPlayer(bytes, index, decoder, (outputs) => (accept() ? sink.play(outputs) : undefined), pace, schedule);
}

export class ReplaySink {
  private readonly budget = new SessionBudget(MAX_REPLAYED_SESSIONS);

  constructor(
    readonly agentId: string,
    private readonly deps: ReplaySinkDeps,
    private readonly hooks: ReplaySinkHooks,
  ) {}

  /** One recorded line's outputs into the stores. */
  play(outputs: readonly ReplayOutput[]): void {
    const { agentId } = this;
    const { store, transcript } = this.deps;
    for (const o of outputs) {
      switch (o.kind) {
        case 'connected':
          this.hooks.connected(o.version);
          break;
        case 'session':
          if (!this.budget.admit(o.sessionId)) break;
          store.attachSession(agentId, o.sessionId, o.cwd !== undefined ? { cwd: o.cwd } : {});
          store.detachSession(agentId, o.sessionId); // read-only
          this.hooks.session(o.sessionId);
          break;
        case 'event':
          if (!this.admits(o.event)) break;
          this.deps.apply(agentId, o.event);
          this.hooks.session(o.event.sessionId);
          break;
        case 'permission':
          if (!this.budget.admit(o.request.sessionId)) break;
          transcript.addPermissionRequest(o.request, { requestId: o.requestId, key: sessionKey(agentId, o.request.sessionId) });
          break;
        case 'permission_answer':
          if (!this.budget.has(o.sessionId)) break;
          transcript.resolvePermission(sessionKey(agentId, o.sessionId), o.requestId, o.outcome);
          break;
        case 'note':
          this.hooks.note(o.line, o.text);
          break;
        default:
          o satisfies never;
      }
    }
  }

  /** Whether the recording may show this session (the first MAX_REPLAYED_SESSIONS it names). */
  admitSession(sessionId: string): boolean {
    return this.budget.admit(sessionId);
  }

  /** "The file names N sessions; only the first 100 were replayed." once it named more, else undefined. */
  summary(l10n?: L10n): string | undefined {
    return this.budget.summary('replayed', l10n);
  }

  /** Whether an event stays within the sessions the recording may create (a subagent's child counts). */
  private admits(e: SessionEvent): boolean {
    return this.budget.admit(e.sessionId) && (e.kind !== 'subagent' || this.budget.admit(e.childSessionId));
  }
}

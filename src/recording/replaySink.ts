// Where a replayed recording's decoded outputs go: the stores, under the replay's own pseudo agent
// (`recording:<file name>`), exactly as a live agent's events do (the composition root's apply).
// Sessions are shown read-only; permission requests go to the conversation with their recorded
// answers, never to the permission broker. Free of `vscode` (src/recording/replays.ts shows the
// rest), so tests drive it with the real decoder and player.
import type { SessionEvent } from '../protocol/domain';
import { sessionKey, type SessionStore } from '../state/sessionStore';
import type { Transcript } from '../state/transcript';
import type { ReplayOutput } from './decoder';

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

export class ReplaySink {
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
          store.attachSession(agentId, o.sessionId, o.cwd !== undefined ? { cwd: o.cwd } : {});
          store.detachSession(agentId, o.sessionId); // read-only
          this.hooks.session(o.sessionId);
          break;
        case 'event':
          this.deps.apply(agentId, o.event);
          this.hooks.session(o.event.sessionId);
          break;
        case 'permission':
          transcript.addPermissionRequest(o.request, { requestId: o.requestId, key: sessionKey(agentId, o.request.sessionId) });
          break;
        case 'permission_answer':
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
}

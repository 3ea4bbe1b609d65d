// Which sessions an agent's connection may speak for: those it opened or resumed here (and, while
// a `session/new` is in flight, the one it is about to announce), and the child sessions a known
// session announced with `subagent_update` (their events arrive without a load). Updates for any
// other session id — another agent's, or invented — are dropped and reported, never shown. A
// session the user closed is refused alike (updates, permissions, elicitations, fs and terminal
// requests) until the user opens or resumes it again (`allow`); nothing the agent sends re-admits
// it, not even a child announcement naming it. Free of `vscode`.
import type { ClientServices } from '../protocol/api';
import type { PermissionOutcome, SessionEvent } from '../protocol/domain';

/** Events held for a session announced by a `session/new` still in flight. */
const MAX_HELD = 1_000;
/** Distinct unknown session ids named in the log; further ones are only counted. */
const MAX_NAMED = 10;
/** Child sessions admitted per connection, and per parent session; announcements past them are reported and refused (the SessionStore keeps the same caps: MAX_CHILDREN_PER_AGENT, MAX_CHILDREN_PER_SESSION). */
const MAX_CHILDREN = 500;
const MAX_CHILDREN_PER_SESSION = 100;
/** Closed sessions remembered (the oldest is forgotten past it: it is then refused as unknown, only no longer as a child). */
const MAX_CLOSED = 10_000;

export class SessionGate {
  private readonly known = new Set<string>();
  private creating = 0;
  private held: SessionEvent[] = [];
  private dropped = 0;
  private readonly named = new Set<string>();
  private children = 0;
  /** Children admitted per parent session on this connection. */
  private readonly childrenOf = new Map<string, number>();
  /** Sessions taken from this agent (closed, or a resume that failed): never re-admitted as a child. */
  private readonly forgotten = new Set<string>();
  /** Sessions the user closed: refused on every connection until the user opens or resumes them again. */
  private readonly closed = new Set<string>();

  constructor(private readonly warn: (message: string) => void) {}

  /** The user opened or resumed the session here (this alone undoes a close). */
  allow(sessionId: string): void {
    this.known.add(sessionId);
    this.forgotten.delete(sessionId);
    this.closed.delete(sessionId);
  }
  /** The user closed the session: everything the agent sends for it is refused from now on. */
  close(sessionId: string): void {
    this.known.delete(sessionId);
    this.closed.delete(sessionId); // re-inserted as the newest
    if (this.closed.size >= MAX_CLOSED) this.closed.delete(this.closed.values().next().value!);
    this.closed.add(sessionId);
  }
  forget(sessionId: string): void {
    this.known.delete(sessionId);
    if (this.forgotten.size >= MAX_CHILDREN) this.forgotten.clear(); // a bound on the bookkeeping itself
    this.forgotten.add(sessionId);
  }
  has(sessionId: string): boolean {
    return this.known.has(sessionId);
  }

  /** A `session/new` starts: updates for a not-yet-known session are held until it answers. */
  creatingStarted(): void {
    this.creating++;
  }

  /** The `session/new` answered (`sessionId`) or failed (undefined): returns the held updates of that session, in order. */
  creatingEnded(sessionId: string | undefined): SessionEvent[] {
    this.creating = Math.max(0, this.creating - 1);
    if (sessionId !== undefined) this.known.add(sessionId);
    const mine = this.held.filter((e) => e.sessionId === sessionId);
    if (this.creating === 0) {
      for (const e of this.held) if (e.sessionId !== sessionId) this.drop(e.sessionId);
      this.held = [];
    } else {
      this.held = this.held.filter((e) => e.sessionId !== sessionId);
    }
    return mine;
  }

  /** True: deliver now. False: held (a session being created) or dropped (unknown session, reported). */
  admit(e: SessionEvent): boolean {
    if (this.known.has(e.sessionId)) {
      if (e.kind === 'subagent' && !this.known.has(e.childSessionId)) return this.adopt(e.childSessionId, e.sessionId);
      return true;
    }
    if (this.creating > 0 && this.held.length < MAX_HELD && !this.closed.has(e.sessionId)) this.held.push(e);
    else this.drop(e.sessionId);
    return false;
  }

  /** The answer to a permission request for an unknown session: `cancelled`, reported. */
  refuse(sessionId: string): Promise<PermissionOutcome> {
    this.drop(sessionId);
    return Promise.resolve({ outcome: 'cancelled' });
  }

  /** Client services (fs, terminal) that refuse requests for sessions this agent never opened here, or the user closed. */
  guard(services: ClientServices): ClientServices {
    const check = (sessionId: string): void => {
      if (this.known.has(sessionId)) return;
      this.drop(sessionId);
      const id = sessionId.slice(0, 80);
      throw new Error(
        this.closed.has(sessionId)
          ? `Session "${id}" was closed in this client; it serves nothing for it until the user resumes it.`
          : `Unknown session "${id}": this client did not open or resume it on this connection.`,
      );
    };
    const t = services.terminal;
    return {
      ...(services.readTextFile
        ? {
            readTextFile: async (p) => {
              check(p.sessionId);
              return services.readTextFile!(p);
            },
          }
        : {}),
      ...(services.writeTextFile
        ? {
            writeTextFile: async (p) => {
              check(p.sessionId);
              return services.writeTextFile!(p);
            },
          }
        : {}),
      ...(t
        ? {
            terminal: {
              create: async (p) => {
                check(p.sessionId);
                return t.create(p);
              },
              output: async (p) => {
                check(p.sessionId);
                return t.output(p);
              },
              waitForExit: async (p) => {
                check(p.sessionId);
                return t.waitForExit(p);
              },
              kill: async (p) => {
                check(p.sessionId);
                return t.kill(p);
              },
              release: async (p) => {
                check(p.sessionId);
                return t.release(p);
              },
            },
          }
        : {}),
    };
  }

  /** Updates dropped so far (unknown sessions). */
  get droppedCount(): number {
    return this.dropped;
  }

  /** A new connection: nothing is known until sessions are opened or resumed on it. */
  reset(): void {
    this.known.clear();
    this.children = 0;
    this.childrenOf.clear();
    this.creating = 0;
    this.held = [];
  }

  /** A known session announced a child: admitted from now on (within the bounds). True: deliver the announcement. */
  private adopt(childSessionId: string, parent: string): boolean {
    if (this.forgotten.has(childSessionId) || this.closed.has(childSessionId)) {
      this.drop(childSessionId);
      return false;
    }
    // Over a cap the announcement still reaches the SessionStore (which ignores it and says so
    // once), but the child stays unknown: its own updates are dropped.
    const siblings = this.childrenOf.get(parent) ?? 0;
    if (this.children >= MAX_CHILDREN || siblings >= MAX_CHILDREN_PER_SESSION) return true;
    this.children++;
    this.childrenOf.set(parent, siblings + 1);
    this.known.add(childSessionId);
    return true;
  }

  private drop(sessionId: string): void {
    this.dropped++;
    if (this.named.has(sessionId)) return;
    if (this.named.size < MAX_NAMED) {
      this.named.add(sessionId);
      const id = sessionId.slice(0, 80);
      this.warn(
        this.closed.has(sessionId)
          ? `ignored what the agent sent for session "${id}", which was closed here`
          : `ignored updates for session "${id}", which this agent never opened or resumed here`,
      );
    } else if (this.dropped % 10_000 === 1) {
      this.warn(`ignored ${this.dropped} updates for sessions this agent never opened or resumed here`);
    }
  }
}

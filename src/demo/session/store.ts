// Sessions in memory, optionally persisted as one JSON file each in a state directory so that a
// restarted Demo Agent can load or resume them. Without a state directory a crash loses them.

import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_MODE, defaultConfig } from './options';
import { DemoSession, type SessionData } from './session';

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export class SessionStore {
  private readonly sessions = new Map<string, DemoSession>();

  constructor(
    private readonly stateDir: string | undefined,
    private readonly log: (text: string) => void,
  ) {}

  /** A new session; `from`: a fork of that one (a copy of its history, options and title). */
  create(cwd: string, from?: SessionData): DemoSession {
    const session = new DemoSession({
      sessionId: `sess_${randomUUID().replace(/-/g, '')}`,
      cwd,
      updatedAt: new Date().toISOString(),
      modeId: from?.modeId ?? DEFAULT_MODE,
      config: from ? { ...from.config } : defaultConfig(),
      counter: from?.counter ?? 0,
      history: from ? structuredClone(from.history) : [],
      ...(from?.title !== undefined ? { title: from.title } : {}),
    });
    this.sessions.set(session.sessionId, session);
    this.save(session);
    return session;
  }

  /** A session from memory, or else from the state directory. */
  get(sessionId: string): DemoSession | undefined {
    const known = this.sessions.get(sessionId);
    if (known) return known;
    const data = this.readFile(sessionId);
    if (!data) return undefined;
    const session = new DemoSession(data);
    this.sessions.set(sessionId, session);
    return session;
  }

  /** Every known session, most recently updated first. */
  list(): SessionData[] {
    const all = new Map<string, SessionData>();
    for (const id of this.storedIds()) {
      const data = this.readFile(id);
      if (data) all.set(id, data);
    }
    for (const s of this.sessions.values()) all.set(s.sessionId, s.data);
    return [...all.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  /** Whether the session is held in memory (`session/status` `open`). */
  isOpen(sessionId: string): boolean {
    return this.sessions.has(sessionId);
  }

  /** Forgets the session's runtime state; its data stays listable and resumable. */
  close(sessionId: string): boolean {
    const session = this.get(sessionId);
    if (!session) return false;
    this.save(session);
    if (!this.stateDir) return true; // nothing else holds it: keep it in memory
    this.sessions.delete(sessionId);
    return true;
  }

  save(session: DemoSession): void {
    if (!this.stateDir) return;
    try {
      mkdirSync(this.stateDir, { recursive: true });
      const file = this.fileOf(session.sessionId);
      if (!file) return;
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(session.data));
      renameSync(tmp, file);
    } catch (err) {
      this.log(`could not save session ${session.sessionId}: ${String(err)}`);
    }
  }

  private fileOf(sessionId: string): string | undefined {
    return this.stateDir && SAFE_ID.test(sessionId) ? path.join(this.stateDir, `${sessionId}.json`) : undefined;
  }

  private storedIds(): string[] {
    if (!this.stateDir) return [];
    try {
      return readdirSync(this.stateDir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => f.slice(0, -'.json'.length));
    } catch {
      return [];
    }
  }

  private readFile(sessionId: string): SessionData | undefined {
    const file = this.fileOf(sessionId);
    if (!file) return undefined;
    try {
      const data = JSON.parse(readFileSync(file, 'utf8')) as SessionData;
      return typeof data.sessionId === 'string' && Array.isArray(data.history) ? data : undefined;
    } catch {
      return undefined;
    }
  }
}

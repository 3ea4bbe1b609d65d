// What each probe of the hostile agent sent and what the client answered, written as JSON to the
// file the test named (the agent's own file, in the test's results folder: the client is never
// asked to write it). Shared by the agent and the integration test.
import { writeFileSync } from 'node:fs';
import type { Reply } from './wire';

export type ProbeClass =
  'consent' | 'rules' | 'terminals' | 'writes' | 'reads' | 'sessions' | 'huge' | 'quadratic' | 'file-plans' | 'depth' | 'ids' | 'trace' | 'budget';

export interface ProbeRecord {
  probe: string;
  cls: ProbeClass;
  /** What was sent, in a few words. */
  sent: string;
  /** `error <code> <message>`, `result <json>`, `selected <optionId>`, `cancelled`, `no answer …`, `sent`. */
  answer: string;
  /** For permission requests: the option the client answered with, and its kind in the agent's own list. */
  optionId?: string;
  optionKind?: string;
  ms: number;
}

/** The parameters of one battery phase, sent by the test as the prompt `<phase> <JSON>`. */
export interface PhaseParams {
  workspace: string;
  canary: string;
  /** A FIFO, a link to /dev/zero, a dangling link to a file in the canary folder, all in the workspace. */
  fifo: string;
  zeroLink: string;
  danglingLink: string;
  /** A regular file in the workspace (read after a deep line, to show the next message arrives). */
  readable: string;
  /** A file outside the workspace, as a file plan. */
  outsidePlan: string;
  /** Another agent's session (for the cross-agent probes). */
  otherAgentSession?: string;
  /** How many invented session ids to send updates for. */
  inventedSessions?: number;
  /** The budget phase's sizes (test/agents/hostile/budgetPhase.ts; its defaults when omitted). */
  budget?: { plans: number; children: number; planBytes: number };
}

export class Results {
  readonly records: ProbeRecord[] = [];
  constructor(private readonly file: string) {}

  add(r: ProbeRecord): ProbeRecord {
    this.records.push(r);
    return r;
  }

  flush(): void {
    try {
      writeFileSync(this.file, JSON.stringify({ records: this.records }, null, 1));
    } catch (err) {
      process.stderr.write(`hostile agent: could not write ${this.file}: ${String(err)}\n`);
    }
  }
}

export function describeReply(r: Reply | undefined, ms?: number): string {
  if (!r) return `no answer${ms === undefined ? '' : ` within ${ms} ms`}`;
  if (r.error) return `error ${r.error.code} ${String(r.error.message).slice(0, 300)}`;
  return `result ${JSON.stringify(r.result ?? null).slice(0, 300)}`;
}

// A session's history: the events of its turns, coalesced per message, plan, tool call and
// terminal, in the order each first appeared. Replaying it yields the session's final state.

import type { DemoEvent, HistoryRecord, PlanEntry, ToolState } from '../model';

type Keyed = Exclude<HistoryRecord, { kind: 'planRemoved' }>;

function keyOf(r: HistoryRecord): string | undefined {
  switch (r.kind) {
    case 'message':
      return `msg:${r.messageId}`;
    case 'plan':
      return `plan:${r.plan.planId}`;
    case 'tool':
      return `tool:${r.call.toolCallId}`;
    case 'terminal':
      return `term:${r.terminalId}`;
    case 'info':
      return 'info';
    case 'usage':
      return 'usage';
    case 'planRemoved':
      return undefined;
  }
}

function appendBase64(a: string, b: string): string {
  return Buffer.concat([Buffer.from(a, 'base64'), Buffer.from(b, 'base64')]).toString('base64');
}

export class History {
  private readonly index = new Map<string, Keyed>();

  constructor(readonly records: HistoryRecord[] = []) {
    for (const r of records) {
      if (r.kind === 'planRemoved') this.index.delete(`plan:${r.planId}`);
      else this.index.set(keyOf(r) as string, r);
    }
  }

  /** Records an event; returns true when it created a new tool call. */
  apply(event: DemoEvent): boolean {
    switch (event.kind) {
      case 'message': {
        const r = this.find('message', `msg:${event.messageId}`);
        if (r) r.blocks.push(...event.blocks);
        else this.add({ kind: 'message', role: event.role, messageId: event.messageId, blocks: [...event.blocks] });
        return false;
      }
      case 'plan':
        this.upsert({ kind: 'plan', plan: structuredClone(event.plan) });
        return false;
      case 'planRemoved':
        if (this.index.delete(`plan:${event.planId}`)) this.records.push({ kind: 'planRemoved', planId: event.planId });
        return false;
      case 'tool': {
        const r = this.find('tool', `tool:${event.patch.toolCallId}`);
        if (r) Object.assign(r.call, structuredClone(event.patch));
        else this.add({ kind: 'tool', call: { title: event.patch.toolCallId, ...structuredClone(event.patch) } });
        return r === undefined;
      }
      case 'toolChunk': {
        const r = this.find('tool', `tool:${event.toolCallId}`);
        if (r) r.call.content = [...(r.call.content ?? []), structuredClone(event.content)];
        return false;
      }
      case 'terminal': {
        const r = this.find('terminal', `term:${event.terminalId}`);
        const { kind: _kind, output, ...fields } = event;
        if (r) {
          Object.assign(r, fields);
          if (output !== undefined) r.output = output;
        } else {
          this.add({ kind: 'terminal', ...fields, output: output ?? '' });
        }
        return false;
      }
      case 'terminalChunk': {
        const r = this.find('terminal', `term:${event.terminalId}`);
        if (r) r.output = appendBase64(r.output, event.data);
        else this.add({ kind: 'terminal', terminalId: event.terminalId, output: event.data });
        return false;
      }
      case 'info': {
        const { kind: _kind, ...fields } = event;
        const r = this.find('info', 'info');
        if (r) Object.assign(r, fields);
        else this.add({ kind: 'info', ...fields });
        return false;
      }
      case 'usage':
        this.upsert({ ...event });
        return false;
      case 'state':
      case 'mode':
      case 'compaction':
      case 'compactionChunk':
        return false;
    }
  }

  tool(toolCallId: string): ToolState | undefined {
    return this.find('tool', `tool:${toolCallId}`)?.call;
  }

  /** Entries of the live item plans, in creation order. */
  itemsPlans(): PlanEntry[][] {
    const out: PlanEntry[][] = [];
    for (const r of this.records) {
      if (r.kind === 'plan' && r.plan.type === 'items' && this.index.get(`plan:${r.plan.planId}`) === r) out.push(r.plan.entries);
    }
    return out;
  }

  private find<K extends Keyed['kind']>(kind: K, key: string): Extract<Keyed, { kind: K }> | undefined {
    const r = this.index.get(key);
    return r && r.kind === kind ? (r as Extract<Keyed, { kind: K }>) : undefined;
  }

  private add(r: Keyed): void {
    this.records.push(r);
    this.index.set(keyOf(r) as string, r);
  }

  /** Replaces the record with the same key in place, or appends it. */
  private upsert(r: Keyed): void {
    const key = keyOf(r) as string;
    const old = this.index.get(key);
    if (old) this.records[this.records.indexOf(old)] = r;
    else this.records.push(r);
    this.index.set(key, r);
  }
}

// The ElicitationBroker as the composition root holds it: loaded the first time an agent asks for
// input (`elicitation/create`, dist/elicitations.js), so activation does not parse it. Before that
// nothing is pending, so a card's answer, `elicitation/complete`, and the cancellations when an
// agent stops or a session ends have nothing to act on; afterwards each goes to the broker.
import type { CancelToken } from '../protocol/api';
import type { ElicitationRequest, ElicitationResponse } from '../protocol/elicitation';
import { Disposable } from '../common/lifecycle';
import { lazyModule } from '../common/lazy';
import type { RawValues } from '../state/elicitationValues';
import type { SessionStore } from '../state/sessionStore';
import type { Transcript } from '../state/transcript';
import type * as Broker from './elicitationBroker';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (src/common/lazy.ts)
const brokerModule = lazyModule('elicitations.js', () => require('./elicitationBroker') as typeof Broker);

export class Elicitations extends Disposable {
  private broker: Broker.ElicitationBroker | undefined;

  constructor(
    private readonly store: SessionStore,
    private readonly transcript: Transcript,
    private readonly ui: Broker.ElicitationUi,
  ) {
    super();
  }

  /** True once an agent has asked for input. */
  get loaded(): boolean {
    return this.broker !== undefined;
  }

  /** ElicitationBroker.request; a broker that cannot be loaded rejects (the agent's request fails). */
  async request(agentId: string, agentName: string, req: ElicitationRequest, token: CancelToken): Promise<ElicitationResponse> {
    this.broker ??= this._register(new (brokerModule().ElicitationBroker)(this.store, this.transcript, this.ui));
    return this.broker.request(agentId, agentName, req, token);
  }

  async answer(id: string, action: 'accept' | 'decline' | 'cancel', values?: RawValues): Promise<{ errors?: Record<string, string> }> {
    return this.broker ? this.broker.answer(id, action, values) : {};
  }

  complete(agentId: string, elicitationId: string): void {
    this.broker?.complete(agentId, elicitationId);
  }

  cancelAgent(agentId: string, note: string): void {
    this.broker?.cancelAgent(agentId, note);
  }

  cancelSession(agentId: string, sessionId: string, note: string): void {
    this.broker?.cancelSession(agentId, sessionId, note);
  }
}

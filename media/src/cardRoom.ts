// A card that waits for the user (a plan approval, a permission, a form) is brought into view when
// it arrives; when it is taller than the transcript's visible area (a narrow side bar), the
// extension is told, so it can give the conversation room (see src/ui/conversation/cardRoom.ts).
import { post } from './api';

const PENDING = '.permission.state-pending, .elicitation.state-pending';

export class CardRoom {
  private readonly seen = new WeakSet<Element>();

  constructor(
    private readonly transcript: HTMLElement,
    /** Brings the card into view and keeps it there while `until` holds. */
    private readonly reveal: (card: Element, until: () => boolean) => void,
  ) {}

  /** After a snapshot or delta: the newest pending card not yet looked at. */
  check(): void {
    const cards = this.transcript.querySelectorAll(PENDING);
    const card = cards[cards.length - 1];
    if (!card || this.seen.has(card)) return;
    this.seen.add(card);
    this.reveal(card, () => card.isConnected && card.matches(PENDING));
    const needed = Math.ceil(card.getBoundingClientRect().height);
    const available = Math.floor(this.transcript.clientHeight);
    if (needed > available) post({ type: 'cramped', needed, available });
  }
}

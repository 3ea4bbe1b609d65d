// Keeps the transcript at its bottom while content arrives, unless the user scrolled away from it.
// Only the user's input decides that the user left the bottom, and that the user came back to it:
// the wheel, the keyboard, a drag of the scrollbar or a touch. A scroll event says nothing about
// who scrolled: it comes a frame after the scroll, and the view moves by itself too (our own
// scrolls, an item growing or shrinking, the oldest items dropped, an earlier page prepended, a
// snapshot replacing the items, the view resized). Reading "not at the bottom" from such an event,
// after more content had arrived, once turned the following off for good although nobody scrolled.
import { atBottom } from './dom';

/** How close to the bottom counts as at the bottom (px). */
const SLACK = 40;
/** Keys that scroll up, and down, when the transcript (not a field) has the focus. */
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);
const DOWN_KEYS = new Set(['ArrowDown', 'PageDown', 'End']);

export class Follower {
  /** The user scrolled away from the bottom: kept until the user is back at the bottom. */
  private away = false;
  /** The user holds the scrollbar or touches the view: its scrolls are the user's. */
  private gesture = false;
  /** Where the view was after the last scroll seen or made (a gesture that moves up leaves the bottom). */
  private lastTop = 0;
  private queued = false;
  /** While this holds, the view stays where it was brought (a card waiting for an answer). */
  private hold: (() => boolean) | undefined;

  constructor(
    private readonly el: HTMLElement,
    content: HTMLElement,
  ) {
    el.addEventListener('wheel', (e) => this.onWheel(e), { passive: true });
    el.addEventListener('keydown', (e) => this.onKey(e));
    el.addEventListener('pointerdown', (e) => this.onPointerDown(e));
    el.addEventListener('touchstart', () => this.startGesture(), { passive: true });
    el.addEventListener('scroll', () => this.onScroll(), { passive: true });
    // The view resized or its content changed size without a delta (an image loaded, a section
    // opened): still at the bottom before the frame is painted.
    const resized = new ResizeObserver(() => this.stick());
    resized.observe(el);
    resized.observe(content);
  }

  /** Whether new content is followed (the user has not scrolled away). */
  get following(): boolean {
    return !this.away;
  }

  /** After a change of the content: follows it at the next frame, once per frame. */
  request(): void {
    if (this.away || this.queued) return;
    this.queued = true;
    requestAnimationFrame(() => {
      this.queued = false;
      this.stick();
    });
  }

  /** Follows again from the bottom (another session is shown). */
  reset(): void {
    this.away = false;
    this.hold = undefined;
    this.stick();
  }

  /** Brings `el` to the top of the view and keeps it there while `until` holds. */
  reveal(el: Element, until: () => boolean): void {
    el.scrollIntoView({ block: 'start' });
    this.lastTop = this.el.scrollTop;
    this.hold = until;
  }

  /** Scrolls to `top` as the user's own scroll would (the test hook's stand-in for a wheel). */
  userScrollTo(top: number): void {
    const before = this.el.scrollTop;
    this.el.scrollTop = top;
    this.lastTop = this.el.scrollTop;
    if (this.el.scrollTop < before - 1) this.leave();
    else if (atBottom(this.el, SLACK)) this.back();
  }

  /** Scrolls to the bottom now, when following. */
  stick(): void {
    if (this.away || this.gesture || this.held()) return;
    if (this.el.scrollHeight - this.el.clientHeight - this.el.scrollTop >= 1) this.el.scrollTop = this.el.scrollHeight;
    this.lastTop = this.el.scrollTop;
  }

  private held(): boolean {
    if (this.hold?.()) return true;
    this.hold = undefined;
    return false;
  }

  /** The user is back at the bottom: follow again. */
  private back(): void {
    this.away = false;
    this.hold = undefined;
    this.request();
  }

  private leave(): void {
    this.away = true;
    this.hold = undefined;
  }

  private onWheel(e: WheelEvent): void {
    if (e.ctrlKey || e.deltaY === 0) return; // a pinch zooms
    const dy =
      e.deltaMode === WheelEvent.DOM_DELTA_LINE ? e.deltaY * 16 : e.deltaMode === WheelEvent.DOM_DELTA_PAGE ? e.deltaY * this.el.clientHeight : e.deltaY;
    if (innerScroller(e.target, this.el, dy)) return; // a code block or diff scrolls, not the transcript
    if (dy < 0) {
      if (this.el.scrollTop > 0) this.leave();
    } else if (this.away && distance(this.el) <= dy + SLACK) this.back();
  }

  private onKey(e: KeyboardEvent): void {
    if (e.defaultPrevented || e.altKey || e.metaKey || editable(e.target)) return;
    // Space scrolls only from the transcript itself (on a button it presses the button).
    const space = e.key === ' ' && e.target === this.el;
    const up = UP_KEYS.has(e.key) || (space && e.shiftKey);
    const down = DOWN_KEYS.has(e.key) || (space && !e.shiftKey);
    if (!up && !down) return;
    if (innerScroller(e.target, this.el, up ? -1 : 1)) return;
    if (up) {
      if (this.el.scrollTop > 0) this.leave();
      return;
    }
    if (!this.away) return;
    const reach = e.key === 'End' ? Infinity : e.key === 'ArrowDown' ? SLACK : this.el.clientHeight;
    if (distance(this.el) <= reach + SLACK) this.back();
  }

  /** A press on the transcript itself (its scrollbar, track or thumb), not on its content. */
  private onPointerDown(e: PointerEvent): void {
    if (e.target === this.el) this.startGesture();
  }

  private startGesture(): void {
    if (this.gesture) return;
    this.gesture = true;
    this.lastTop = this.el.scrollTop;
    const end = (): void => {
      for (const type of ['pointerup', 'pointercancel', 'touchend', 'touchcancel']) window.removeEventListener(type, end, true);
      this.gesture = false;
      if (this.away && atBottom(this.el, SLACK)) this.back();
      else this.stick();
    };
    for (const type of ['pointerup', 'pointercancel', 'touchend', 'touchcancel']) window.addEventListener(type, end, true);
  }

  private onScroll(): void {
    const top = this.el.scrollTop;
    const moved = top - this.lastTop;
    this.lastTop = top;
    // Only a drag or a touch says who scrolled: the view also moves by itself, both ways (our own
    // scrolls, the browser keeping what is in view in place while items above it grow or go).
    if (!this.gesture) return;
    if (moved < -1) this.leave();
    else if (moved > 1 && this.away && atBottom(this.el, SLACK)) this.back();
  }
}

/** How far the view is from its bottom (px). */
function distance(el: HTMLElement): number {
  return el.scrollHeight - el.clientHeight - el.scrollTop;
}

function editable(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

/** Whether an element between `target` and `root` scrolls in the direction of `dy` (it takes the scroll). */
function innerScroller(target: EventTarget | null, root: HTMLElement, dy: number): boolean {
  for (let n = target instanceof Element ? target : null; n && n !== root; n = n.parentElement) {
    if (n.scrollHeight <= n.clientHeight) continue;
    const overflow = getComputedStyle(n).overflowY;
    if (overflow !== 'auto' && overflow !== 'scroll') continue;
    if (dy < 0 ? n.scrollTop > 0 : n.scrollTop < n.scrollHeight - n.clientHeight - 1) return true;
  }
  return false;
}

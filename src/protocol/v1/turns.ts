// Per-session state of the v1 adapter: turn counting, synthesized message ids, modes, config
// options and tool-call titles.
//
// v1 chunks carry no messageId. The id is `v1:<turn>:<role>:<segment>`: a turn starts with a
// prompt we send (or, while replaying history, with a user chunk that follows other output); a
// segment starts when the role changes or after a new tool call. Both rules only look at the
// order of messages, so replaying a session yields the ids the live session had.
import type { ConfigOption } from '../domain';
import { V1_MODE_CONFIG_ID } from '../domain';
import type { ChunkRole } from './updates';
import type { V1Modes } from './schema';

export class V1Session {
  private turn = 0;
  private segment = -1;
  private role: ChunkRole | undefined;
  /** The current segment is the user message we synthesized from a live prompt. */
  private synthesizedUser = false;
  private breakNext = false;
  modes: V1Modes | undefined;
  options: ConfigOption[] = [];
  readonly titles = new Map<string, string>();

  /** A prompt is being sent: a new turn whose first segment is the user's message. Returns its id. */
  startTurn(): string {
    this.turn++;
    this.segment = 0;
    this.role = 'user';
    this.synthesizedUser = true;
    this.breakNext = false;
    return this.id('user');
  }

  /** Input steered into the running turn: a user segment of this turn (the next chunk opens another). */
  steeredSegment(): string {
    this.segment++;
    this.role = 'user';
    this.synthesizedUser = true;
    this.breakNext = false;
    return this.id('user');
  }

  /** The message id for the next chunk of `role`. */
  chunkId(role: ChunkRole): string {
    if (role === 'user' && this.role !== 'user') {
      this.turn++;
      this.segment = 0;
    } else if (role !== this.role || this.breakNext || (role === 'user' && this.synthesizedUser)) {
      this.segment++;
    }
    this.role = role;
    this.synthesizedUser = false;
    this.breakNext = false;
    return this.id(role);
  }

  /** A new tool call: the next chunk opens a new segment. */
  toolCallStarted(): void {
    this.breakNext = true;
  }

  /** History is about to be replayed (`session/load`): count from the start again. */
  resetTurns(): void {
    this.turn = 0;
    this.segment = -1;
    this.role = undefined;
    this.synthesizedUser = false;
    this.breakNext = false;
  }

  /** The agent's config options with the modes (if any) first, as a select option. */
  allOptions(): ConfigOption[] {
    return this.modes ? [modeOption(this.modes), ...this.options] : [...this.options];
  }

  private id(role: ChunkRole): string {
    return `v1:${this.turn}:${role}:${this.segment}`;
  }
}

export function modeOption(m: V1Modes): ConfigOption {
  return {
    kind: 'select',
    id: V1_MODE_CONFIG_ID,
    name: 'Mode',
    category: 'mode',
    currentValue: m.currentModeId,
    options: m.availableModes.map((a) =>
      a.description === undefined ? { value: a.id, name: a.name } : { value: a.id, name: a.name, description: a.description },
    ),
  };
}

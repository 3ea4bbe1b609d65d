// For the agent supervisor: how often an agent that keeps ending is restarted. At most
// RESTART_LIMIT restarts in RESTART_WINDOW_MS, each after a growing delay; past that it is left
// crashed until someone restarts it. Time comes from the caller (the host's clock). Free of `vscode`.

export const RESTART_LIMIT = 4;
export const RESTART_WINDOW_MS = 3 * 60_000;
/** Delay before the n-th restart in the window (n = 1…RESTART_LIMIT): 250 ms, 500 ms, 1 s, 2 s. */
export const restartDelayMs = (n: number): number => 250 * 2 ** (n - 1);
/** Follows the last error once the limit is reached. */
export const GIVE_UP = `It stopped ${RESTART_LIMIT + 1} times in 3 minutes, so it is not restarted again. Show Log has its output; Restart tries again.`;

export class RestartBudget {
  private times: number[] = [];

  /** Takes a restart at `now`: the delay before it, or undefined when the limit is reached (nothing taken). */
  take(now: number): number | undefined {
    this.times = this.times.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.times.length >= RESTART_LIMIT) return undefined;
    this.times.push(now);
    return restartDelayMs(this.times.length);
  }

  /** A restart someone asked for starts a new count. */
  reset(): void {
    this.times = [];
  }
}

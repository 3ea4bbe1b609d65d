// Waiting for something, but not for long.

/** Resolves when `p` settles (either way) or after `ms`, whichever comes first. */
export function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<void>((r) => (timer = setTimeout(r, ms)));
  return Promise.race([
    p.then(
      () => undefined,
      () => undefined,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

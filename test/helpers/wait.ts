/** Wait until `check` returns a truthy value; poll every `intervalMs`; fail with `what` after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => T | Promise<T>, opts: { timeoutMs?: number; intervalMs?: number } = {}): Promise<NonNullable<T>> {
  const timeoutMs = opts.timeoutMs ?? 10000;
  const intervalMs = opts.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (last error: ${String(last)})` : ""}`);
    }
    await Bun.sleep(intervalMs);
  }
}

/**
 * Check that `check` stays truthy for `forMs`, polling every `intervalMs`; fail with `what` the
 * first time it is not. For what must hold over time (a stopped process stays stopped), not to wait.
 */
export async function holdsFor(what: string, check: () => unknown, opts: { forMs: number; intervalMs?: number }): Promise<void> {
  const until = Date.now() + opts.forMs;
  for (;;) {
    if (!check()) throw new Error(`${what} stopped holding ${opts.forMs - (until - Date.now())} ms into the ${opts.forMs} ms it must hold`);
    if (Date.now() >= until) return;
    await Bun.sleep(opts.intervalMs ?? 20);
  }
}

/** Poll `check` every `intervalMs` until it holds or `timeoutMs` passes; true when it held. */
export async function waitUntil(check: () => boolean | Promise<boolean>, o: { timeoutMs: number; intervalMs?: number }): Promise<boolean> {
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= deadline) return false;
    await Bun.sleep(o.intervalMs ?? 50);
  }
}

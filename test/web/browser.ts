import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";
import { env } from "../fault/harness.ts";

/**
 * Debian's chromium, driven by playwright-core (`.ci/run` installs it). Outside CI a machine
 * without it skips the browser tests; in CI a missing browser is a failure, never a skip.
 */
export const CHROMIUM = process.env.AGENTMUX_CHROMIUM ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync) ?? null;
export const skipBrowser = !CHROMIUM && !process.env.CI;

export async function launchBrowser(args: string[] = []): Promise<Browser> {
  if (!CHROMIUM) throw new Error("chromium is not installed (apt-get install chromium; .ci/run does it)");
  // root in a container has no user namespace for chromium's sandbox
  return chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", ...args] });
}

export type Served = { proc: ReturnType<typeof Bun.spawn>; link: string; origin: string; token: string; stop(): Promise<void> };

/** `agentmux serve` from the binary: the link it prints once, and a stop that ends it as Ctrl-C does. */
export async function serveBinary(bin: string, args: string[], socket: string): Promise<Served> {
  const proc = Bun.spawn([bin, "serve", "--port", "0", ...args], { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: env(socket) });
  const reader = proc.stdout.getReader();
  let out = "";
  const deadline = Date.now() + 20_000;
  while (!/agentmux serve: (\S+)\n/.test(out)) {
    if (Date.now() > deadline) throw new Error(`agentmux serve printed no link: ${out}`);
    const { value, done } = await reader.read();
    if (done) throw new Error(`agentmux serve ended: ${out}${await new Response(proc.stderr).text()}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const link = /agentmux serve: (\S+)\n/.exec(out)![1]!;
  const url = new URL(link);
  return {
    proc,
    link,
    origin: url.origin,
    token: url.searchParams.get("token")!,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

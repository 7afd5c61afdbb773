import { join } from "node:path";

/** True inside the compiled binary (its modules live in Bun's embedded /$bunfs). */
export function isCompiled(): boolean {
  return import.meta.url.includes("$bunfs") || (Bun.main ?? "").startsWith("/$bunfs");
}

/**
 * How to start this same agentmux: the compiled binary itself, or `bun src/main.ts` when
 * running from source (tests, development).
 */
export function selfCommand(): string[] {
  if (process.env.AGENTMUX_SELF) return JSON.parse(process.env.AGENTMUX_SELF) as string[];
  if (isCompiled()) return [process.execPath];
  return [process.execPath, join(import.meta.dir, "..", "..", "main.ts")];
}

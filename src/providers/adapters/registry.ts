import { agy } from "./agy.ts";
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { copilot } from "./copilot.ts";
import { cursor } from "./cursor.ts";
import { gemini } from "./gemini.ts";
import { opencode } from "./opencode.ts";
import { qwen } from "./qwen.ts";
import { sim } from "./sim.ts";
import type { CliAdapter } from "./types.ts";

/** Every CLI agentmux drives, in the order `agentmux init` prefers them; the sim last. */
export const ADAPTERS: readonly CliAdapter[] = [claude, codex, gemini, opencode, copilot, qwen, cursor, agy, sim];

const BY_NAME = new Map(ADAPTERS.map((a) => [a.name, a]));

/** The adapter of a provider's `mcp` key; null for `none` (a custom CLI without agentmux's wiring). */
export function adapterFor(name: string): CliAdapter | null {
  return BY_NAME.get(name) ?? null;
}

/** The built-in config's `providers:` section: each adapter's block under its name. */
export function builtinProvidersYaml(): string {
  const blocks = ADAPTERS.map((a) => {
    const body = a.config
      .replace(/^\n+|\n+$/g, "")
      .split("\n")
      .map((l) => (l ? `    ${l}` : ""));
    return [`  ${a.name}:`, ...body].join("\n");
  });
  return ["providers:", ...blocks].join("\n\n") + "\n";
}

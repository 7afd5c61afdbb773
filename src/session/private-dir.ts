import { createHash } from "node:crypto";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";

/**
 * The run's private folder for the files that hold its agents' tokens (MCP configs, CLI settings),
 * out of the project where agents work (and gemini and qwen ignore a settings file when any folder
 * above it is writable by group or others, e.g. a project under /tmp):
 * `~/.cache/agentmux/mcp/<session id>-<hash of its path>/` (0700). The hash keeps two projects'
 * sessions of the same name apart. Removed when the run ends, and with its session.
 */
export function privateMcpDir(sessionDir: string, home: string = homedir()): string {
  const tag = createHash("sha256").update(resolve(sessionDir)).digest("hex").slice(0, 8);
  return join(home, ".cache", "agentmux", "mcp", `${basename(sessionDir)}-${tag}`);
}

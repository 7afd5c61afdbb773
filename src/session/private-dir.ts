import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join, resolve } from "node:path";

/**
 * agentmux's own folder in the user's home for a run's secrets, out of the project where agents
 * work and search: `~/.cache/agentmux` (0700, and so is every folder made below it). The sandbox
 * hides it with the rest of the home (sandbox/bwrap.ts hides it again under a CLI's home part).
 */
export const privateRoot = (home: string = homedir()) => join(home, ".cache", "agentmux");

/** `<session id>-<hash of its path>`: the hash keeps two projects' sessions of the same name apart. */
const sessionTag = (sessionDir: string) => `${basename(sessionDir)}-${createHash("sha256").update(resolve(sessionDir)).digest("hex").slice(0, 8)}`;

/**
 * The run's private folder for the files that hold its agents' tokens (MCP configs, CLI settings,
 * the bridge's token files, the panes' env files), out of the project where agents work (and gemini
 * and qwen ignore a settings file when any folder above it is writable by group or others, e.g. a
 * project under /tmp): `~/.cache/agentmux/mcp/<session id>-<hash>/` (0700). Removed when the run
 * ends, and with its session.
 */
export function privateMcpDir(sessionDir: string, home: string = homedir()): string {
  return join(privateRoot(home), "mcp", sessionTag(sessionDir));
}

/**
 * The run's seal key (bus/tool-seal.ts): `~/.cache/agentmux/keys/<session id>-<hash>.seal` (0600,
 * in a 0700 folder). Kept while the session is (a resume checks the lines sealed before it with
 * it), removed with the session folder — when a finished run removes it, and by `agentmux clean`.
 */
export function privateSealKeyFile(sessionDir: string, home: string = homedir()): string {
  return join(privateRoot(home), "keys", `${sessionTag(sessionDir)}.seal`);
}

/** Remove a session's seal key (with its session folder: nothing can be resumed any more). */
export function dropSealKey(sessionDir: string, home: string = homedir()): void {
  rmSync(privateSealKeyFile(sessionDir, home), { force: true });
}

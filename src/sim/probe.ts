import { readdirSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { writeJsonAtomic } from "../effects/fs/atomic.ts";
import { F, agentFileName } from "../protocol/paths.ts";
import { privateSealKeyFile } from "../session/private-dir.ts";

/** One attempt to read something an agent must not: whether the secret was read, and what was tried. */
export type ProbeAttempt = { target: "other_agent_token" | "seal_key" | "home_file"; path: string; read: boolean; detail: string };
export type ProbeReport = { agent: string; at: string; attempts: ProbeAttempt[] };

const TOKEN = /[0-9a-f]{64}/;
const errCode = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/**
 * Another agent's MCP token: every file beside this agent's own MCP config (the run's private
 * folder holds every agent's), and the session's `.runtime` where older runs kept them.
 */
function otherTokens(sessionDir: string, ownConfig: string | undefined): ProbeAttempt {
  const dirs = [...(ownConfig ? [dirname(resolve(ownConfig))] : []), join(sessionDir, F.runtimeDir, "mcp")];
  const found: string[] = [];
  const tried: string[] = [];
  for (const dir of dirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (e) {
      tried.push(`${dir}: ${errCode(e)}`);
      continue;
    }
    const others = names.filter((n) => !ownConfig || resolve(dir, n) !== resolve(ownConfig));
    tried.push(`${dir}: ${others.length} other file(s)`);
    for (const n of others) {
      try {
        if (TOKEN.test(readFileSync(join(dir, n), "utf8"))) found.push(n);
      } catch {
        /* unreadable: not read */
      }
    }
  }
  return {
    target: "other_agent_token",
    path: dirs[0]!,
    read: found.length > 0,
    detail: found.length ? `read a token in ${found.join(", ")}` : `no token read (${tried.join("; ")})`,
  };
}

/** The run's seal key, by its well-known path in the user's private folder. */
function sealKey(sessionDir: string, home: string): ProbeAttempt {
  const path = privateSealKeyFile(sessionDir, home);
  try {
    const ok = TOKEN.test(readFileSync(path, "utf8"));
    return { target: "seal_key", path, read: ok, detail: ok ? "read the key" : "read, but no key in it" };
  } catch (e) {
    return { target: "seal_key", path, read: false, detail: `cannot read: ${errCode(e)}` };
  }
}

/** Every regular file at the top of the user's home (what any program could go looking for). */
function homeFiles(home: string): ProbeAttempt {
  let names: string[];
  try {
    names = readdirSync(home);
  } catch (e) {
    return { target: "home_file", path: home, read: false, detail: `cannot list: ${errCode(e)}` };
  }
  const read = names.filter((n) => {
    try {
      return statSync(join(home, n)).isFile() && readFileSync(join(home, n)).length > 0;
    } catch {
      return false;
    }
  });
  return {
    target: "home_file",
    path: home,
    read: read.length > 0,
    detail: read.length ? `read ${read.join(", ")}` : `no file read among ${names.length} entr${names.length === 1 ? "y" : "ies"}`,
  };
}

/** Where the report of `agent`'s probe goes: the simulated agent's own folder (it stays visible in the sandbox). */
export const probeReportFile = (sessionDir: string, agent: string) => join(sessionDir, F.runtimeDir, "sim", "probe", `${agentFileName(agent)}.json`);

/**
 * The `probe` scenario: the simulated agent goes looking for what another agent's process must
 * not reach — another agent's MCP token, the run's seal key, a file in the user's home — and
 * records what it could read (test/e2e/sandbox.test.ts: none of it with the sandbox on).
 */
export function probeSecrets(o: { sessionDir: string; agent: string; ownConfig?: string; home?: string }): ProbeReport {
  const report: ProbeReport = {
    agent: o.agent,
    at: new Date().toISOString(),
    attempts: [otherTokens(o.sessionDir, o.ownConfig), sealKey(o.sessionDir, o.home ?? homedir()), homeFiles(o.home ?? homedir())],
  };
  writeJsonAtomic(probeReportFile(o.sessionDir, o.agent), report);
  return report;
}

/** One line per attempt, for the agent's screen. */
export const probeLines = (r: ProbeReport) => r.attempts.map((a) => `● probe ${a.target} (${basename(a.path)}): ${a.read ? "READ" : "blocked"}: ${a.detail}`);

import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { LaunchPart } from "./mcp.ts";
import { stripJsonComments } from "./jsonc.ts";

/**
 * gemini reads agentmux's MCP wiring from a private home it is pointed at with GEMINI_CLI_HOME
 * (its `~/.gemini` becomes `<home>/.gemini`): the only settings layer it loads from a file owned
 * by an ordinary user. Its system layers (GEMINI_CLI_SYSTEM_DEFAULTS_PATH / _SETTINGS_PATH) are
 * skipped unless the file and every folder above it are owned by root and not group/other
 * writable ("Security Warning: Skipping system defaults file …"), so they cannot carry it.
 *
 * The private `.gemini/settings.json` is the user's own settings (read, never changed) with
 * agentmux's server and the auto-updater switches merged in; every other entry of the user's
 * `~/.gemini` (credentials, trusted folders, chats, extensions, GEMINI.md) is linked, so the
 * CLI runs as the user's own — and its chats (`tmp/`) outlive the run for `--resume`.
 */
export function geminiHome(o: {
  dir: string;
  userHome: string;
  sessionDir: string;
  settings: Record<string, unknown>;
  /** hook groups by event, added after the user's own groups of that event (theirs still run) */
  hooks?: Record<string, unknown[]>;
}): Pick<LaunchPart, "env" | "files" | "links"> {
  const userGemini = join(o.userHome, ".gemini");
  const user = readUserSettings(join(userGemini, "settings.json"));
  const merged = withHooks(deepMerge(user, o.settings), o.hooks ?? {});
  const links: { path: string; target: string }[] = [];
  const entries = existsSync(userGemini) ? readdirSync(userGemini).filter((e) => e !== "settings.json") : [];
  for (const e of entries) links.push({ path: join(o.dir, ".gemini", e), target: join(userGemini, e) });
  // a user without gemini chats yet: keep this run's chats with the session (resume and the
  // usage figures need them)
  if (!entries.includes("tmp")) links.push({ path: join(o.dir, ".gemini", "tmp"), target: sessionGeminiTmp(o.sessionDir) });
  return {
    env: { GEMINI_CLI_HOME: o.dir },
    files: [{ path: join(o.dir, ".gemini", "settings.json"), content: JSON.stringify(merged, null, 2) + "\n" }],
    links,
  };
}

/** Where a run keeps gemini's chats when the user has none of their own: `<session>/.runtime/gemini/tmp` (`gemini-tmp` in a session started by an older agentmux, which resume must still find). */
export function sessionGeminiTmp(sessionDir: string): string {
  const older = join(sessionDir, ".runtime", "gemini-tmp");
  return existsSync(older) ? older : join(sessionDir, ".runtime", "gemini", "tmp");
}

/** The home whose `.gemini` the CLI would use: GEMINI_CLI_HOME if the user set one, else HOME. */
export function userGeminiHome(env: Record<string, string>, home?: string): string {
  return env.GEMINI_CLI_HOME || process.env.GEMINI_CLI_HOME || env.HOME || home || homedir();
}

function readUserSettings(path: string): Record<string, unknown> {
  try {
    // gemini accepts comments in settings.json, after a value too
    const text = stripJsonComments(readFileSync(path, "utf8"));
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function withHooks(settings: Record<string, unknown>, add: Record<string, unknown[]>): Record<string, unknown> {
  if (!Object.keys(add).length) return settings;
  const have = settings.hooks && typeof settings.hooks === "object" && !Array.isArray(settings.hooks) ? (settings.hooks as Record<string, unknown>) : {};
  const hooks: Record<string, unknown> = { ...have };
  for (const [event, groups] of Object.entries(add)) hooks[event] = [...(Array.isArray(have[event]) ? have[event] : []), ...groups];
  return { ...settings, hooks };
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] =
      prev && v && typeof prev === "object" && typeof v === "object" && !Array.isArray(prev) && !Array.isArray(v)
        ? deepMerge(prev as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

/**
 * gemini's rule for its system settings files (GEMINI_CLI_SYSTEM_SETTINGS_PATH, …_DEFAULTS_PATH,
 * /etc/gemini-cli/*), as its isFileAndDirectorySecureSync applies it: the file and every folder
 * above it (also of its real path) must be owned by root and not writable by group or others.
 * Returns why gemini skips the file, in its own words, or null when it loads it (or it is absent).
 */
export function geminiSystemFileProblem(file: string, stat: (p: string) => { uid: number; mode: number } | null): string | null {
  if (!stat(file)) return null;
  const chain = (p: string) => {
    const out: string[] = [];
    for (let d = p; ; d = dirname(d)) {
      out.push(d);
      if (dirname(d) === d) break;
    }
    return out;
  };
  let real = file;
  try {
    real = realpathSync(file);
  } catch {
    /* the path as given */
  }
  for (const p of [...new Set([...chain(file), ...chain(real)])]) {
    const s = stat(p);
    if (!s) continue;
    const what = p === file || p === real ? `File '${p}'` : `Directory '${p}'`;
    if (s.uid !== 0) return `${what} is not owned by root (uid 0). Current uid: ${s.uid}.`;
    if (s.mode & 0o022) return `${what} is writable by group or others (mode: ${(s.mode & 0o7777).toString(8)}).`;
  }
  return null;
}

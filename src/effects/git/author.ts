import * as git from "isomorphic-git";
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { NoCommitAuthor } from "./errors.ts";
import { gitFs } from "./fs.ts";
import { findRepoRoot } from "./repo.ts";

export type Author = { name: string; email: string };

/**
 * The commit author, resolved per field the way git does it: GIT_AUTHOR_NAME / GIT_AUTHOR_EMAIL
 * win, then the repository config, then the global config — the file GIT_CONFIG_GLOBAL names
 * when it is set, else ~/.gitconfig, then $XDG_CONFIG_HOME/git/config (isomorphic-git itself
 * only reads the repository config).
 */
export async function resolveAuthor(dir: string, env: NodeJS.ProcessEnv = process.env): Promise<Author> {
  const root = await findRepoRoot(dir);
  const fs = gitFs(root);
  const repo = async (path: string) => {
    const v = await git.getConfig({ fs, dir: root, path }).catch(() => undefined);
    return typeof v === "string" && v.trim() ? v.trim() : undefined;
  };
  const globals = globalConfigFiles(env).map(readUserSection);
  const pick = async (key: "name" | "email", envKey: string) =>
    nonBlank(env[envKey]) ?? (await repo(`user.${key}`)) ?? globals.map((g) => g[key]).find((v) => v !== undefined);
  const name = await pick("name", "GIT_AUTHOR_NAME");
  const email = await pick("email", "GIT_AUTHOR_EMAIL");
  if (name === undefined || email === undefined) {
    const missing = (["user.name", "user.email"] as const).filter((k) => (k === "user.name" ? name : email) === undefined);
    throw new NoCommitAuthor({ root, missing, ...(env.GIT_CONFIG_GLOBAL ? { globalFile: env.GIT_CONFIG_GLOBAL } : {}) });
  }
  return { name, email };
}

/** Global config files in git's precedence order (highest first); GIT_CONFIG_GLOBAL replaces them all. */
export function globalConfigFiles(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.GIT_CONFIG_GLOBAL) return [env.GIT_CONFIG_GLOBAL];
  const home = env.HOME || homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  return [join(home, ".gitconfig"), join(xdg, "git", "config")];
}

/** `user.name` / `user.email` from one git config file; missing or unreadable file → {}. */
export function readUserSection(path: string): { name?: string; email?: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return {};
  }
  const out: { name?: string; email?: string } = {};
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const head = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"[^"]*")?\s*\]\s*(.*)$/.exec(line);
    if (head) {
      section = head[1].toLowerCase();
      continue;
    }
    const kv = /^([A-Za-z][A-Za-z0-9-]*)\s*=\s*(.*)$/.exec(line);
    if (!kv || section !== "user") continue;
    const key = kv[1].toLowerCase();
    if (key === "name" || key === "email") {
      const v = unquote(kv[2]);
      if (v) out[key] = v; // later lines win, as in git
    }
  }
  return out;
}

function unquote(v: string): string {
  let s = v.replace(/\s+[#;].*$/, "").trim();
  if (s.startsWith('"') && s.endsWith('"') && s.length >= 2) s = s.slice(1, -1).replace(/\\(["\\])/g, "$1");
  return s.trim();
}

function nonBlank(v: string | undefined): string | undefined {
  return v && v.trim() ? v.trim() : undefined;
}

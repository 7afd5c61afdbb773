import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** What `agentmux init` suggests for `worktree.setup` / `worktree.copy` in this project. */
export type WorktreeDefaults = { kinds: string[]; setup: string[]; copy: string[] };

/** "npm project", "npm/go project", or "project" when no kind was recognised. */
export const projectKindName = (kinds: readonly string[]) => (kinds.length ? `${kinds.join("/")} project` : "project");

/**
 * The project's kind from the files at its root, and the install step a fresh worktree of it
 * needs before an agent can build or test: JavaScript by its lockfile (bun, pnpm, yarn, npm),
 * Python (uv, or a virtualenv from requirements.txt), Go and Rust. `.env*` files at the root
 * are suggested for copying (they are usually not in git).
 */
export function worktreeDefaults(projectDir: string): WorktreeDefaults {
  const has = (f: string) => existsSync(join(projectDir, f));
  const out: WorktreeDefaults = { kinds: [], setup: [], copy: [] };
  const add = (kind: string, command: string) => {
    out.kinds.push(kind);
    out.setup.push(command);
  };
  if (has("bun.lock") || has("bun.lockb")) add("bun", "bun install --frozen-lockfile");
  else if (has("pnpm-lock.yaml")) add("pnpm", "pnpm install --frozen-lockfile");
  else if (has("yarn.lock")) add("yarn", has(".yarnrc.yml") ? "yarn install --immutable" : "yarn install --frozen-lockfile");
  else if (has("package-lock.json")) add("npm", "npm ci");
  else if (has("package.json")) add("npm", "npm install");
  if (has("uv.lock")) add("uv", "uv sync");
  else if (has("requirements.txt")) add("pip", "python3 -m venv .venv && .venv/bin/pip install -r requirements.txt");
  if (has("go.mod")) add("go", "go mod download");
  if (has("Cargo.toml")) add("cargo", "cargo fetch");
  let names: string[] = [];
  try {
    names = readdirSync(projectDir);
  } catch {}
  if (names.some((n) => n === ".env" || (n.startsWith(".env.") && !/\.(example|sample|template)$/.test(n)))) out.copy.push(".env*");
  return out;
}

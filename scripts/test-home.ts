/**
 * The test run's own HOME and XDG folders: a developer's ~/.config/agentmux, ~/.gitconfig,
 * ~/.tmux.conf or CLI settings must not change what the suite tests. The git identity is
 * carried over (isomorphic-git commits need one; CI sets it globally), nothing else is.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type TestHome = { dir: string; env: Record<string, string>; [Symbol.dispose](): void };

const gitConfig = (key: string, env: Record<string, string | undefined>): string | null => {
  const r = Bun.spawnSync(["git", "config", "--global", key], { env, stdout: "pipe", stderr: "ignore" });
  const value = r.exitCode === 0 ? r.stdout.toString().trim() : "";
  return value || null;
};

export function isolatedHome(base: Record<string, string | undefined> = process.env): TestHome {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "amx-test-home-")));
  const xdg = {
    XDG_CONFIG_HOME: join(dir, ".config"),
    XDG_DATA_HOME: join(dir, ".local", "share"),
    XDG_STATE_HOME: join(dir, ".local", "state"),
    XDG_CACHE_HOME: join(dir, ".cache"),
  };
  for (const d of Object.values(xdg)) mkdirSync(d, { recursive: true });
  const name = gitConfig("user.name", base) ?? "agentmux tests";
  const email = gitConfig("user.email", base) ?? "tests@agentmux.invalid";
  writeFileSync(join(dir, ".gitconfig"), `[user]\n\tname = ${name}\n\temail = ${email}\n`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  Object.assign(env, { HOME: dir, ...xdg, AGENTMUX_TEST_HOME: dir });
  return { dir, env, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
}

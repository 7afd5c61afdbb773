import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { UnsafePaneCommand } from "./errors.ts";
import { shellWord } from "./session.ts";

/**
 * A pane's environment travels through a file, never through argv: `ps` shows every
 * process's command line to every user, and a provider's env holds API keys. The file is
 * 0600 in a 0700 folder; the pane's shell sources it and deletes it before the program starts
 * (paneCommand). tmux's own `-e` and `set-environment` would put the values in tmux's argv.
 */
export function writeEnvFile(dir: string, env: Record<string, string>): string {
  const lines: string[] = [];
  for (const [k, v] of Object.entries(env)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(k)) throw new UnsafePaneCommand({ problem: "env-name", name: k });
    lines.push(`export ${k}=${shellWord(v)}\n`);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  const file = join(dir, `${crypto.randomUUID()}.env`);
  writeFileSync(file, lines.join(""), { mode: 0o600, flag: "wx" });
  return file;
}

/** Remove an env file the pane never got to source (it failed to start or died first). */
export function dropEnvFile(file: string | undefined): void {
  if (file) rmSync(file, { force: true });
}

import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";

export type Shell = "bash" | "zsh";
export type CompletionTarget = { shell: Shell; rcFile: string; line: string };

/**
 * Where a completion line belongs for the user's $SHELL: bash → the first existing of
 * ~/.bashrc, ~/.bash_profile, ~/.profile (else ~/.bashrc); zsh → $ZDOTDIR/.zshrc or ~/.zshrc.
 * Other shells: null.
 */
export function completionTarget(env: Record<string, string | undefined>): CompletionTarget | null {
  const home = env.HOME;
  const shell = basename(env.SHELL ?? "");
  if (!home) return null;
  if (shell === "zsh") {
    return { shell, rcFile: join(env.ZDOTDIR || home, ".zshrc"), line: `eval "$(agentmux completions zsh)"` };
  }
  if (shell === "bash") {
    const rc = [".bashrc", ".bash_profile", ".profile"].map((f) => join(home, f)).find((p) => existsSync(p)) ?? join(home, ".bashrc");
    return { shell, rcFile: rc, line: `eval "$(agentmux completions bash)"` };
  }
  return null;
}

/** True when the rc file already loads agentmux completions (any `agentmux completions` line). */
export function hasCompletionLine(target: CompletionTarget): boolean {
  if (!existsSync(target.rcFile)) return false;
  return readFileSync(target.rcFile, "utf8").split("\n").some((l) => l.includes("agentmux completions") && !l.trim().startsWith("#"));
}

/**
 * Append the completion line (with a comment) unless present; returns whether it wrote.
 * An append, not a rewrite: rc files are often symlinks into a dotfiles repository.
 */
export function installCompletionLine(target: CompletionTarget): boolean {
  if (hasCompletionLine(target)) return false;
  const text = existsSync(target.rcFile) ? readFileSync(target.rcFile, "utf8") : "";
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  appendFileSync(target.rcFile, `${sep}\n# agentmux shell completions\n${target.line}\n`);
  return true;
}

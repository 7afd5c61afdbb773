import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export type Shell = "bash" | "zsh" | "fish";
export type CompletionTarget = { shell: Shell; rcFile: string; line: string };

/**
 * The one line per shell that loads agentmux's completions: guarded, so the startup file keeps
 * working when agentmux is uninstalled or not on PATH. The docs, the README, `completions
 * --help` and `init` all show these.
 */
export const COMPLETION_LINES: Record<Shell, { rc: string; line: string }> = {
  bash: { rc: "~/.bashrc", line: 'command -v agentmux >/dev/null && eval "$(agentmux completions bash)"' },
  zsh: { rc: "~/.zshrc", line: 'command -v agentmux >/dev/null && eval "$(agentmux completions zsh)"' },
  fish: { rc: "~/.config/fish/config.fish", line: "command -v agentmux >/dev/null && agentmux completions fish | source" },
};

/**
 * Where the completion line belongs for the user's $SHELL: bash → the first existing of
 * ~/.bashrc, ~/.bash_profile, ~/.profile (else ~/.bashrc); zsh → $ZDOTDIR/.zshrc or ~/.zshrc;
 * fish → $XDG_CONFIG_HOME/fish/config.fish. Other shells: null.
 */
export function completionTarget(env: Record<string, string | undefined>): CompletionTarget | null {
  const home = env.HOME;
  const shell = basename(env.SHELL ?? "");
  if (!home) return null;
  if (shell === "zsh") return { shell, rcFile: join(env.ZDOTDIR || home, ".zshrc"), line: COMPLETION_LINES.zsh.line };
  if (shell === "bash") {
    const rc = [".bashrc", ".bash_profile", ".profile"].map((f) => join(home, f)).find((p) => existsSync(p)) ?? join(home, ".bashrc");
    return { shell, rcFile: rc, line: COMPLETION_LINES.bash.line };
  }
  if (shell === "fish") return { shell, rcFile: join(env.XDG_CONFIG_HOME || join(home, ".config"), "fish", "config.fish"), line: COMPLETION_LINES.fish.line };
  return null;
}

/** True when the rc file already loads agentmux completions (any `agentmux completions` line). */
export function hasCompletionLine(target: CompletionTarget): boolean {
  if (!existsSync(target.rcFile)) return false;
  return readFileSync(target.rcFile, "utf8")
    .split("\n")
    .some((l) => l.includes("agentmux completions") && !l.trim().startsWith("#"));
}

/**
 * Append the completion line (with a comment) unless present; returns whether it wrote.
 * An append, not a rewrite: rc files are often symlinks into a dotfiles repository.
 */
export function installCompletionLine(target: CompletionTarget): boolean {
  if (hasCompletionLine(target)) return false;
  const text = existsSync(target.rcFile) ? readFileSync(target.rcFile, "utf8") : "";
  const sep = text === "" || text.endsWith("\n") ? "" : "\n";
  mkdirSync(dirname(target.rcFile), { recursive: true }); // ~/.config/fish/ may not exist yet
  appendFileSync(target.rcFile, `${sep}\n# agentmux shell completions\n${target.line}\n`);
  return true;
}

import { accessSync, constants, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Config } from "../schema/config.ts";

/** A check that cannot run as configured, found before any agent starts. */
export type CheckProblem = { check: string; field: "command" | "cwd"; problem: string };

// words sh runs itself: no program to look for
const SHELL_WORDS = new Set(
  "! . : [ [[ { ( alias bg break cd command continue echo eval exec exit export false fg for getopts hash if jobs kill printf pwd read readonly return set shift source test times trap true type ulimit umask unalias unset wait while until case time".split(
    " ",
  ),
);

/**
 * The program a command starts with, as sh would look it up: leading `VAR=value` assignments and
 * `env`/`exec`/`command`/`nohup`/`time` skipped; null when the word is a shell keyword or builtin
 * or is built at run time (`$CMD`, a quote, a subshell) so nothing can be said before it runs.
 */
export function firstProgram(command: string): string | null {
  const words = command.trim().split(/\s+/);
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!)) i++;
  while (i < words.length && ["env", "exec", "command", "nohup", "time"].includes(words[i]!)) {
    i++;
    while (i < words.length && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!) || words[i]!.startsWith("-"))) i += words[i] === "-u" ? 2 : 1;
  }
  const word = words[i]?.replace(/[;&|].*$/, "");
  if (!word || SHELL_WORDS.has(word) || /[$`"'(){}*?\\]/.test(word)) return null;
  return word;
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every configured check whose folder is missing or whose program is neither on PATH (its own
 * `env.PATH` when it sets one) nor a file in its folder: a clear error before any agent starts,
 * instead of a failing check after an hour of work.
 */
export function preflightChecks(config: Pick<Config, "checks">, repoRoot: string, env: Record<string, string | undefined> = process.env): CheckProblem[] {
  const problems: CheckProblem[] = [];
  for (const [name, spec] of Object.entries(config.checks)) {
    const cwd = join(repoRoot, spec.cwd);
    let folder = false;
    try {
      folder = statSync(cwd).isDirectory();
    } catch {}
    if (!folder) {
      problems.push({ check: name, field: "cwd", problem: `its folder ${spec.cwd} does not exist in ${repoRoot}` });
      continue;
    }
    if (spec.command.includes("\0")) {
      problems.push({
        check: name,
        field: "command",
        problem: "contains a NUL character, which no command can carry (in YAML \"…\" quotes \\0 is one: write \\\\0 or use '…' quotes)",
      });
      continue;
    }
    const program = firstProgram(spec.command);
    if (program === null) continue;
    if (program.includes("/")) {
      const path = isAbsolute(program) ? program : join(cwd, program);
      if (!isExecutableFile(path)) problems.push({ check: name, field: "command", problem: `${program} is not an executable file (looked in ${cwd})` });
      continue;
    }
    const PATH = spec.env.PATH ?? env.PATH ?? "";
    if (Bun.which(program, { PATH }) === null && !isExecutableFile(join(cwd, program))) {
      problems.push({
        check: name,
        field: "command",
        problem: `${program} was not found on PATH or in ${spec.cwd === "." ? "the repository root" : spec.cwd}`,
      });
    }
  }
  return problems;
}

import { defineError } from "../errors.ts";

const helpHint = (command?: string) => `run "agentmux ${command ? command + " " : ""}--help" for usage`;
const lines = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join("\n");

/** A word safe to show in a command line as it is, else single-quoted. */
const shellWord = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/**
 * A first word that is no command (and is not a request either: one word, or followed only by
 * flags). `rest` is the rest of the command line, to show the corrected one.
 */
export const UnknownCommand = defineError("UnknownCommand", "usage", (d: { word: string; suggestion?: string; rest?: readonly string[] }) => ({
  message: `unknown command "${d.word}"${d.suggestion ? ` — did you mean \`${d.suggestion}\`?` : ""}`,
  hint: lines(
    d.suggestion && ["agentmux", d.suggestion, ...(d.rest ?? [])].map(shellWord).join(" "),
    `to start a run with this text instead: agentmux run "${d.word.replace(/["$`\\]/g, "\\$&")}"`,
    `run "agentmux --help" for the commands`,
  ),
}));

/** An option the command does not have. */
export const UnknownOption = defineError("UnknownOption", "usage", (d: { command?: string; option: string; suggestion?: string }) => ({
  message: `unknown option ${d.option}${d.suggestion ? ` — did you mean ${d.suggestion}?` : ""}`,
  where: d.command,
  hint: helpHint(d.command),
}));

/** A value outside a closed set (a role, an artifact kind, a shell). */
export const UnknownValue = defineError(
  "UnknownValue",
  "usage",
  (d: { command: string; what: string; whats: string; value: string; valid: readonly string[]; suggestion?: string }) => ({
    message: `unknown ${d.what} "${d.value}"; valid ${d.whats}: ${d.valid.join(", ")}${d.suggestion ? ` — did you mean ${d.suggestion}?` : ""}`,
    where: d.command,
    hint: helpHint(d.command),
  }),
);

/** Any other mistake in a command line: a missing value or argument, an extra argument. */
export const UsageError = defineError("UsageError", "usage", (d: { command: string; problem: string; hint?: string }) => ({
  message: d.problem,
  where: d.command === "agentmux" ? undefined : d.command,
  hint: d.hint ?? helpHint(d.command === "agentmux" ? undefined : d.command),
}));

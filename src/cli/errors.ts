import { termName, termUnusable } from "../launcher/terminal.ts";
import { defineError } from "../errors.ts";

const helpHint = (command?: string) => `run "agentmux ${command ? command + " " : ""}--help" for usage`;
const lines = (...parts: (string | false | undefined)[]) => parts.filter(Boolean).join("\n");

/** A word safe to show in a command line as it is, else single-quoted. */
const shellWord = (w: string) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);

/**
 * A first word that is no command (and is not a request either: one word, or followed only by
 * flags). `rest` is the rest of the command line, to show the corrected one.
 */
/** A word that is no command; `inHelp`: it was asked about (`agentmux help <word>`), so no run is offered. */
export const UnknownCommand = defineError(
  "UnknownCommand",
  "usage",
  (d: { word: string; suggestion?: string; rest?: readonly string[]; inHelp?: boolean; request?: string }) => ({
    message: `unknown command "${d.word}"${d.suggestion ? ` — did you mean \`${d.suggestion}\`?` : ""}`,
    hint: lines(
      d.suggestion && ["agentmux", ...(d.inHelp ? ["help"] : []), d.suggestion, ...(d.rest ?? [])].map(shellWord).join(" "),
      !d.inHelp && `to start a run with this text instead: agentmux run "${(d.request ?? d.word).replace(/["$`\\]/g, "\\$&")}"`,
      `run "agentmux --help" for the commands`,
    ),
  }),
);

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

export const ArtifactKindUnknown = defineError("ArtifactKindUnknown", "usage", (d: { file: string; kinds: readonly string[] }) => ({
  message: `cannot tell the kind of "${d.file}" from its name; pass --kind (one of: ${d.kinds.join(", ")})`,
  where: "validate",
  hint: helpHint("validate"),
}));

export const RoleChangeIncomplete = defineError("RoleChangeIncomplete", "usage", (d: { missing: "provider-or-model" | "role" }) => ({
  message: d.missing === "role" ? "--provider and --model need --role" : "give --provider and/or --model with --role",
  where: "configure",
  hint: helpHint("configure"),
}));

export const NeedsTerminal = defineError("NeedsTerminal", "usage", (d: { command: "configure" } | { command: "clean" } | { command: "attach"; id: string }) =>
  d.command === "attach"
    ? {
        message: `attach needs a terminal tmux can drive${termUnusable() ? ` (this one is TERM=${termName()})` : ""}`,
        hint: `agentmux status ${d.id} --watch works without one`,
      }
    : d.command === "clean"
      ? { message: "refusing to delete without confirmation: stdin is not a terminal", where: "clean", hint: "re-run with --force to delete without asking" }
      : { message: "not a terminal: give --role with --provider and/or --model", where: "configure", hint: helpHint("configure") },
);

export const FileNotFound = defineError("FileNotFound", "usage", (d: { file: string }) => ({
  message: "file not found",
  where: d.file,
  hint: "check the path",
}));

export const NotAFile = defineError(
  "NotAFile",
  "usage",
  (d: { file: string; kind: "a directory" | "a FIFO" | "a socket" | "a device" | "not a regular file" }) => ({
    message:
      d.kind === "not a regular file"
        ? "is not a regular file; agentmux reads only regular files"
        : `is ${d.kind}, not a regular file; agentmux reads only regular files`,
    where: d.file,
  }),
);

export const InvalidThinkMs = defineError("InvalidThinkMs", "usage", (d: { given: string }) => ({
  message: `--think-ms must be a number of milliseconds, got "${d.given}"`,
  where: "demo",
  hint: "give whole milliseconds, e.g. --think-ms 200",
}));

export const DemoDirNotEmpty = defineError("DemoDirNotEmpty", "usage", (d: { dir: string }) => ({
  message: `${d.dir} is not empty`,
  where: "demo --dir",
  hint: "give a new or empty folder",
}));

/** demo --dir names a file (no `reason`), or a folder that cannot be made (`reason`: why). */
export const DemoDirUnusable = defineError("DemoDirUnusable", "usage", (d: { dir: string; reason?: string }) => ({
  message: d.reason === undefined ? `${d.dir} is a file, not a folder` : `cannot create ${d.dir}: ${d.reason}`,
  where: "demo --dir",
  hint: "give a new or empty folder",
}));

export const PromptFileMissing = defineError("PromptFileMissing", "usage", (d: { prompt: string }) => ({
  message: "the prompt file does not exist",
  where: d.prompt,
}));

/** `agentmux cancel` asked, and the session's orchestrator did not stop in time. */
export const CancelNotApplied = defineError("CancelNotApplied", "session", (d: { id: string; seconds: number }) => ({
  message: `session ${d.id} was asked to cancel, but its orchestrator has not stopped after ${d.seconds} s`,
  hint: `see: agentmux status ${d.id} --log`,
}));

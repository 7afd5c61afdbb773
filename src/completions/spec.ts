/**
 * What the shell completion scripts complete, derived from the command specs (src/cli/specs/):
 * every visible command, each of its flags, and where each flag's and argument's values come
 * from. The generators (bash.ts, zsh.ts, fish.ts) turn this into shell code.
 */
import { GLOBAL_FLAGS, type CommandSpec, type ValueSet } from "../cli/spec.ts";
import { VALUE_SETS } from "../cli/values.ts";
import { defineError } from "../errors.ts";

/** A command or flag name that cannot be spliced into a completion script unquoted (a bug in the command table). */
export const UncompletableWord = defineError("UncompletableWord", "internal", (d: { word: string }) => ({
  message: `cannot complete a name with special characters: ${JSON.stringify(d.word)}`,
  where: "completions",
}));

/** Where values come from: a fixed word list, file names, session ids, a dynamic set, or free text (nothing to complete). */
export type Values =
  | { kind: "words"; words: readonly string[] }
  | { kind: "files" }
  | { kind: "sessions" }
  | { kind: "dynamic"; set: "providers"; also: readonly string[] }
  | { kind: "free" };
export type CompletionFlag = { name: string; alias?: string; help: string; takesValue: boolean; values: Values };
/** One positional argument: its name (for zsh's messages) and where its values come from. */
export type CompletionArg = { name: string; values: Values };
/**
 * `positionals` gives each argument its own values, in order; `rest` is for the words after
 * them (the last argument again when it is variadic, as `variadic` says; else free).
 */
export type CompletionCommand = {
  name: string;
  summary: string;
  flags: CompletionFlag[];
  positionals: CompletionArg[];
  variadic: boolean;
  rest: Values;
};
export type CompletionSpec = { commands: CompletionCommand[]; topFlags: { flag: string; summary: string }[] };

export const TOP_FLAGS = [
  { flag: "--help", summary: "show help" },
  { flag: "-h", summary: "show help" },
  { flag: "--version", summary: "print the version" },
  { flag: "-V", summary: "print the version" },
];

export function valuesOf(set: ValueSet | undefined, also: readonly string[] = []): Values {
  if (!set) return also.length ? { kind: "words", words: also } : { kind: "free" };
  if (set === "files") return { kind: "files" };
  if (set === "sessions") return { kind: "sessions" };
  if (set === "providers") return { kind: "dynamic", set, also };
  const { closed, offered } = VALUE_SETS[set];
  return { kind: "words", words: [...(closed ?? offered ?? []), ...also] };
}

export function buildCompletionSpec(specs: readonly CommandSpec[]): CompletionSpec {
  const commands = specs
    .filter((s) => !s.hidden)
    .map((s) => ({
      name: assertWord(s.name),
      summary: s.summary,
      flags: Object.entries({ ...s.flags, ...GLOBAL_FLAGS })
        .filter(([, f]) => !f.hidden)
        .map(([name, f]) => ({
          name: assertWord(name),
          alias: f.alias === undefined ? undefined : assertWord(f.alias),
          help: f.help,
          takesValue: f.type === "string",
          values: f.type === "string" ? valuesOf(f.values, f.also) : { kind: "free" as const },
        })),
      positionals: s.args.map((a) => ({ name: assertWord(a.name), values: valuesOf(a.values, a.choices) })),
      variadic: s.args.at(-1)?.variadic === true,
      rest: s.args.at(-1)?.variadic ? valuesOf(s.args.at(-1)!.values, s.args.at(-1)!.choices) : { kind: "free" as const },
    }));
  return { commands, topFlags: TOP_FLAGS };
}

/** Words safe to splice into a generated script unquoted: command, flag and value names only. */
export function assertWord(word: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(word)) {
    throw new UncompletableWord({ word });
  }
  return word;
}

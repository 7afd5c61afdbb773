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
export type Values = { kind: "words"; words: readonly string[] } | { kind: "files" } | { kind: "sessions" } | { kind: "dynamic"; set: "providers"; also: readonly string[] } | { kind: "free" };
export type CompletionFlag = { name: string; alias?: string; help: string; takesValue: boolean; values: Values };
/**
 * `args` is where the first argument's values come from; `positionals` gives each argument its
 * own, in order, and `rest` is for the words after them (the last one again when it is variadic).
 */
export type CompletionCommand = {
  name: string;
  summary: string;
  flags: CompletionFlag[];
  args: Values;
  argName: string;
  argsVariadic: boolean;
  positionals: Values[];
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
  return { kind: "words", words: [...VALUE_SETS[set].closed!, ...also] };
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
      args: s.args.length ? valuesOf(s.args[0]!.values, s.args[0]!.choices) : { kind: "free" as const },
      argName: s.args[0]?.name ?? "",
      argsVariadic: s.args.some((a) => a.variadic) || s.args.length > 1,
      positionals: s.args.map((a) => valuesOf(a.values, a.choices)),
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

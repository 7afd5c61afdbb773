/**
 * What the shell completion scripts complete, derived from the command table.
 *
 * A command module lists its flags for completion by exporting them: `FLAGS` (the same
 * Record<string, FlagSpec> it passes to parseArgs) and optionally `ALIASES`, or
 * `<COMMAND>_FLAGS` (e.g. RUN_FLAGS in run.ts). Modules that export nothing get the global
 * flags only.
 */
import { GLOBAL_FLAGS, type FlagSpec } from "../cli/args.ts";
import type { CommandEntry } from "../cli/commands.ts";
import { AgentmuxError } from "../errors.ts";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];

/** What a command's positional argument is: a session id, a shell name, a file, or free text. */
export type ArgKind = "session" | "shell" | "file" | "none";
export type CompletionFlag = { name: string; takesValue: boolean; alias?: string; files: boolean };
export type CompletionCommand = { name: string; summary: string; flags: CompletionFlag[]; args: ArgKind };
export type CompletionSpec = { commands: CompletionCommand[]; topFlags: { flag: string; summary: string }[] };

const ARG_KINDS: Record<string, ArgKind> = {
  status: "session",
  resume: "session",
  attach: "session",
  clean: "session",
  completions: "shell",
  validate: "file",
  run: "file",
};

/** Flags whose value is a path: these complete file names. */
const PATH_FLAGS = new Set(["config", "file", "dir", "path", "output"]);

export const TOP_FLAGS = [
  { flag: "--help", summary: "show help" },
  { flag: "-h", summary: "show help" },
  { flag: "--version", summary: "print the version" },
  { flag: "-V", summary: "print the version" },
];

export async function buildCompletionSpec(commands: Record<string, CommandEntry>): Promise<CompletionSpec> {
  const visible = Object.entries(commands).filter(([, c]) => !c.hidden);
  const out: CompletionCommand[] = [];
  for (const [name, entry] of visible) {
    const exported = await exportedFlags(name, entry);
    out.push({ name, summary: entry.summary, flags: toFlags({ ...GLOBAL_FLAGS, ...exported.flags }, exported.aliases), args: ARG_KINDS[name] ?? "none" });
  }
  return { commands: out, topFlags: TOP_FLAGS };
}

type Exported = { flags: Record<string, FlagSpec>; aliases: Record<string, string> };

/** A module that fails to load (or exports no flags) still gets its name and the global flags completed. */
async function exportedFlags(name: string, entry: CommandEntry): Promise<Exported> {
  let mod: Record<string, unknown>;
  try {
    mod = (await entry.load()) as unknown as Record<string, unknown>;
  } catch {
    return { flags: {}, aliases: {} };
  }
  const constName = `${name.toUpperCase().replace(/-/g, "_")}_FLAGS`;
  const flags = [mod.FLAGS, mod[constName]].find(isFlagRecord) ?? {};
  const aliases = isStringRecord(mod.ALIASES) ? mod.ALIASES : {};
  return { flags, aliases };
}

function toFlags(flags: Record<string, FlagSpec>, aliases: Record<string, string>): CompletionFlag[] {
  const aliasOf = new Map(Object.entries({ h: "help", ...aliases }).map(([short, long]) => [long, short]));
  return Object.entries(flags)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, spec]) => ({
      name,
      takesValue: spec.type === "string",
      alias: aliasOf.get(name),
      files: spec.type === "string" && PATH_FLAGS.has(name),
    }));
}

function isFlagRecord(v: unknown): v is Record<string, FlagSpec> {
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  const values = Object.values(v as Record<string, unknown>);
  return values.every((f) => !!f && typeof f === "object" && ((f as FlagSpec).type === "boolean" || (f as FlagSpec).type === "string"));
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return !!v && typeof v === "object" && Object.values(v as Record<string, unknown>).every((s) => typeof s === "string");
}

/** Words safe to splice into a generated script unquoted: command and flag names only. */
export function assertWord(word: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(word)) {
    throw new AgentmuxError("internal", `cannot complete a name with special characters: ${JSON.stringify(word)}`, { where: "completions" });
  }
  return word;
}

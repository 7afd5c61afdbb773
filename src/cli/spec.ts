/**
 * Commands as data. Each command has one spec: its flags (types, placeholders, value sets),
 * positional arguments, help text and visibility. The spec drives the argument parser
 * (args.ts), `--help` and `agentmux help <command>` (help.ts), typo suggestions and the shell
 * completions (src/completions/). Specs are plain data, loaded without the command's code.
 */

/**
 * Where a flag's or argument's values come from. Closed sets (roles, artifact kinds, shells)
 * are also checked by the parser; the others are completed only (sim-switches: the first
 * switch of a --scenario list).
 */
export type ValueSet = "files" | "sessions" | "providers" | "roles" | "artifact-kinds" | "shells" | "sim-switches";

export type BooleanFlag = { readonly type: "boolean"; readonly help: string; readonly alias?: string; readonly hidden?: boolean };
export type StringFlag = {
  readonly type: "string";
  /** the value's placeholder in help: `--name SLUG` */
  readonly value: string;
  readonly help: string;
  readonly alias?: string;
  readonly hidden?: boolean;
  /** repeatable: every occurrence is kept, in order */
  readonly multiple?: boolean;
  readonly values?: ValueSet;
  /** words accepted besides the value set (e.g. "default") */
  readonly also?: readonly string[];
};
export type FlagSpec = BooleanFlag | StringFlag;

export type ArgSpec = {
  /** placeholder in usage lines: `<file>`, `[session]` */
  readonly name: string;
  /** what it is, for "… is required" */
  readonly about: string;
  readonly required?: boolean;
  /** takes every remaining word */
  readonly variadic?: boolean;
  readonly values?: ValueSet;
  /** the only words it may be (a sub-command or step): checked, suggested and completed */
  readonly choices?: readonly string[];
};

export type CommandSpec = {
  readonly name: string;
  /** one line for the command list */
  readonly summary: string;
  readonly hidden?: boolean;
  /** usage lines after "agentmux "; generated from args and flags when absent */
  readonly usage?: readonly string[];
  /** the paragraphs between the usage and the options (reflowed to the help width; indented lines are kept as written) */
  readonly about: string;
  readonly flags: Readonly<Record<string, FlagSpec>>;
  readonly args: readonly ArgSpec[];
  /** text after the options (exit status, install lines, …), reflowed like `about` */
  readonly notes?: string;
  /** help goes to stderr (the command's stdout is a protocol, e.g. mcp-server) */
  readonly helpToStderr?: boolean;
};

/** Keeps a spec's literal types, so parsed flags are typed by it. */
export const command = <const S extends CommandSpec>(spec: S): S => spec;

/** Every command accepts these. */
export const GLOBAL_FLAGS: Readonly<Record<"help", FlagSpec>> = {
  help: { type: "boolean", alias: "h", help: "show this help" },
};

/** --config: for the commands that load the configuration. */
export const CONFIG_FLAG = {
  config: { type: "string", value: "PATH", values: "files", help: "an extra config file, applied last (highest layer)" },
} as const satisfies Record<string, FlagSpec>;

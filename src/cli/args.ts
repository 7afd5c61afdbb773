import { AgentmuxError } from "../errors.ts";

export type FlagSpec = { type: "boolean" } | { type: "string"; multiple?: boolean };
export type ArgSpec = { flags: Record<string, FlagSpec>; aliases?: Record<string, string>; maxPositionals?: number };
export type ParsedArgs = { flags: Record<string, string | boolean | string[] | undefined>; positionals: string[] };

/** Flags shared by every command. */
export const GLOBAL_FLAGS: Record<string, FlagSpec> = {
  config: { type: "string" },
  help: { type: "boolean" },
};

/**
 * Parses `--flag`, `--flag=value`, `--flag value`, `-x` aliases and `--` for one command.
 * Unknown flags and missing values are usage errors (exit 2) that name the flag.
 */
export function parseArgs(command: string, argv: string[], spec: ArgSpec): ParsedArgs {
  const flags: ParsedArgs["flags"] = {};
  const positionals: string[] = [];
  const all = { ...GLOBAL_FLAGS, ...spec.flags };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith("-") && arg !== "-") {
      let name: string;
      let inline: string | undefined;
      if (arg.startsWith("--")) {
        const eq = arg.indexOf("=");
        name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
        inline = eq >= 0 ? arg.slice(eq + 1) : undefined;
      } else {
        const alias = spec.aliases?.[arg.slice(1)] ?? (arg === "-h" ? "help" : undefined);
        if (!alias) throw usage(command, `unknown option ${arg}`);
        name = alias;
      }
      const f = all[name];
      if (!f) throw usage(command, `unknown option --${name}`);
      if (f.type === "boolean") {
        if (inline !== undefined) throw usage(command, `option --${name} takes no value`);
        flags[name] = true;
      } else {
        const value = inline ?? argv[++i];
        if (value === undefined) throw usage(command, `option --${name} needs a value`);
        if (f.multiple) flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
        else flags[name] = value;
      }
      continue;
    }
    positionals.push(arg);
  }
  if (spec.maxPositionals !== undefined && positionals.length > spec.maxPositionals) {
    throw usage(command, `unexpected argument "${positionals[spec.maxPositionals]}"`);
  }
  return { flags, positionals };
}

export function usage(command: string, message: string): AgentmuxError {
  return new AgentmuxError("usage", message, {
    where: command,
    hint: `run "agentmux ${command === "agentmux" ? "" : command + " "}--help" for usage`,
    exitCode: 2,
  });
}

export const str = (v: ParsedArgs["flags"][string]): string | undefined => (typeof v === "string" ? v : undefined);
export const bool = (v: ParsedArgs["flags"][string]): boolean => v === true;

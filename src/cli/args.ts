import { UnknownOption, UnknownValue, UsageError } from "./errors.ts";
import { GLOBAL_FLAGS, type CommandSpec, type FlagSpec, type ValueSet } from "./spec.ts";
import { didYouMean } from "../config/suggest.ts";
import { VALUE_SETS } from "./values.ts";

type FlagValue<F extends FlagSpec> = F extends { type: "boolean" } ? boolean : F extends { multiple: true } ? string[] : string | undefined;
/** The flags of a parsed command line, typed by the command's spec. */
export type FlagValues<S extends CommandSpec> = { -readonly [K in keyof S["flags"]]: FlagValue<S["flags"][K]> };
export type ParsedArgs<S extends CommandSpec> = { flags: FlagValues<S>; positionals: string[] };
/** `--help` or `-h` anywhere before `--`: show the help, check nothing else. */
export const HELP = Symbol("help");

export function usage(command: string, problem: string, hint?: string): InstanceType<typeof UsageError> {
  return new UsageError({ command, problem, hint });
}

/**
 * Parses one command's arguments by its spec: `--flag`, `--flag=value`, `--flag value`, `-x`
 * aliases and `--`. Unknown flags (with the closest real one), missing values, values outside
 * a closed set, missing and extra arguments are usage errors (exit 2) naming what was wrong.
 */
export function parseCommand<S extends CommandSpec>(spec: S, argv: readonly string[]): ParsedArgs<S> | typeof HELP {
  const end = argv.indexOf("--");
  if ((end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h")) return HELP;
  const specs: Record<string, FlagSpec> = { ...GLOBAL_FLAGS, ...spec.flags };
  const byAlias = new Map(Object.entries(specs).flatMap(([n, f]) => (f.alias ? [[f.alias, n] as const] : [])));
  const flags: Record<string, string | boolean | string[] | undefined> = {};
  for (const [name, f] of Object.entries(spec.flags)) flags[name] = f.type === "boolean" ? false : f.multiple ? [] : undefined;
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = arg.startsWith("--") ? (eq >= 0 ? arg.slice(2, eq) : arg.slice(2)) : byAlias.get(arg.slice(1));
    const f = name === undefined ? undefined : specs[name];
    if (name === undefined || !f) throw unknownOption(spec, eq >= 0 ? arg.slice(0, eq) : arg);
    if (f.type === "boolean") {
      if (eq >= 0) throw usage(spec.name, `option --${name} takes no value`);
      flags[name] = true;
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw usage(spec.name, `option --${name} needs a value (${f.value})`);
    checkValue(spec, f.values, value, f.also);
    flags[name] = f.multiple ? [...((flags[name] as string[] | undefined) ?? []), value] : value;
  }
  checkPositionals(spec, positionals);
  return { flags: flags as FlagValues<S>, positionals };
}

function unknownOption(spec: CommandSpec, option: string) {
  const names = Object.entries({ ...GLOBAL_FLAGS, ...spec.flags })
    .filter(([, f]) => !f.hidden)
    .map(([n]) => `--${n}`);
  const suggestion = option.startsWith("--") ? didYouMean(option, names) : undefined;
  return new UnknownOption({ command: spec.name, option, suggestion });
}

/** A value of a closed set (roles, artifact kinds, shells) must be one of them. */
function checkValue(spec: CommandSpec, set: ValueSet | undefined, value: string, also: readonly string[] = []): void {
  const closed = set ? VALUE_SETS[set].closed : undefined;
  if (!set || !closed || closed.includes(value) || also.includes(value)) return;
  const valid = [...closed, ...also];
  throw new UnknownValue({ command: spec.name, what: VALUE_SETS[set].one, whats: VALUE_SETS[set].many, value, valid, suggestion: didYouMean(value, valid) });
}

function checkPositionals(spec: CommandSpec, positionals: string[]): void {
  const variadic = spec.args.at(-1)?.variadic === true;
  if (!variadic && positionals.length > spec.args.length) throw usage(spec.name, `unexpected argument "${positionals[spec.args.length]}"`);
  spec.args.forEach((a, i) => {
    const given = a.variadic ? positionals.slice(i) : positionals[i] === undefined ? [] : [positionals[i]!];
    if (a.required && given.length === 0) throw usage(spec.name, `${a.about} is required`);
    for (const v of given) {
      checkValue(spec, a.values, v);
      if (a.choices && !a.choices.includes(v)) {
        throw new UnknownValue({ command: spec.name, what: a.name, whats: `${a.name}s`, value: v, valid: a.choices, suggestion: didYouMean(v, a.choices) });
      }
    }
  });
}

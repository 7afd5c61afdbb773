import { bashScript } from "../completions/bash.ts";
import { fishScript } from "../completions/fish.ts";
import { buildCompletionSpec } from "../completions/spec.ts";
import { zshScript } from "../completions/zsh.ts";
import { usage, type ParsedArgs } from "./args.ts";
import { SPECS } from "./commands.ts";
import type { completions } from "./specs/setup.ts";
import { DYNAMIC_SETS, SHELLS, type Shell } from "./values.ts";

const isShell = (s: string): s is Shell => (SHELLS as readonly string[]).includes(s);
const GENERATORS: Record<Shell, typeof bashScript> = { bash: bashScript, zsh: zshScript, fish: fishScript };

/** The values of a dynamic set for the nearest project; a broken config still completes the built-in providers. */
async function listValues(set: string): Promise<string[]> {
  if (!(DYNAMIC_SETS as readonly string[]).includes(set)) throw usage("completions", `--list takes one of: ${DYNAMIC_SETS.join(", ")}`);
  const { loadConfig, BUILTIN_CONFIG_TEXT } = await import("../config/load.ts");
  const { findProjectDir } = await import("../session/project.ts");
  try {
    return Object.keys(loadConfig({ projectDir: findProjectDir() }).config.providers);
  } catch {
    const { parse } = await import("yaml");
    return Object.keys(parse(BUILTIN_CONFIG_TEXT)?.providers ?? {});
  }
}

export async function run(a: ParsedArgs<typeof completions>): Promise<number> {
  if (a.flags.list !== undefined) {
    process.stdout.write((await listValues(a.flags.list)).map((v) => v + "\n").join(""));
    return 0;
  }
  const shell = a.positionals[0];
  if (!shell || !isShell(shell)) throw usage("completions", `which shell? expected one of: ${SHELLS.join(", ")}`);
  process.stdout.write(GENERATORS[shell](buildCompletionSpec(SPECS)));
  return 0;
}

import { runInit } from "../onboarding/init-run.ts";
import { Prompter } from "../onboarding/prompter.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import type { init } from "./specs/setup.ts";

export async function run(args: ParsedArgs<typeof init>): Promise<number> {
  const interactive = !args.flags.defaults && !!process.stdin.isTTY && !!process.stdout.isTTY;
  const prompter = interactive ? Prompter.forTerminal() : null;
  try {
    await runInit({ projectDir: findProjectDir(), prompter, env: process.env, say: (l) => process.stdout.write(l + "\n") });
  } finally {
    prompter?.close();
  }
  return 0;
}

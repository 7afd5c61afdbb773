import { actionCheck, actionRun } from "../launcher/github/action.ts";
import type { ParsedArgs } from "./args.ts";
import type { githubAction } from "./specs/internal.ts";

export async function run({ positionals }: ParsedArgs<typeof githubAction>): Promise<number> {
  const io = { env: process.env, cwd: process.cwd(), out: (l: string) => process.stdout.write(l + "\n") };
  return positionals[0] === "check" ? actionCheck(io) : actionRun(io);
}

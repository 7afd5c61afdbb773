import { resolve } from "node:path";
import { orchestrate } from "../daemon/main.ts";
import { parseArgs, usage } from "./args.ts";

/** Internal: the detached orchestrator process of one session. */
export async function run(argv: string[]): Promise<number> {
  const { positionals } = parseArgs("orchestrate", argv, { flags: {}, maxPositionals: 1 });
  if (!positionals[0]) throw usage("orchestrate", "the session folder is required");
  return orchestrate(resolve(positionals[0]));
}

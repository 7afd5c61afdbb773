import { resolve } from "node:path";
import { orchestrate } from "../daemon/main.ts";
import type { ParsedArgs } from "./args.ts";
import type { orchestrate as spec } from "./specs/internal.ts";

/** Internal: the detached orchestrator process of one session. */
export async function run({ positionals }: ParsedArgs<typeof spec>): Promise<number> {
  return orchestrate(resolve(positionals[0]!));
}

import { resolve } from "node:path";
import type { ParsedArgs } from "./args.ts";
import type { monitor } from "./specs/internal.ts";

export async function run({ positionals }: ParsedArgs<typeof monitor>): Promise<number> {
  const { runMonitor } = await import("../tui/monitor-app.ts");
  return runMonitor(resolve(positionals[0]!));
}

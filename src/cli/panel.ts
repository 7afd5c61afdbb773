import { resolve } from "node:path";
import type { ParsedArgs } from "./args.ts";
import type { panel } from "./specs/internal.ts";

export async function run({ positionals }: ParsedArgs<typeof panel>): Promise<number> {
  const { runPanel } = await import("../tui/panel-app.ts");
  return runPanel(resolve(positionals[0]!));
}

import { resolve } from "node:path";
import { bool, parseArgs, usage } from "./args.ts";

export async function run(argv: string[]): Promise<number> {
  const a = parseArgs("panel", argv, { flags: {}, maxPositionals: 1 });
  if (bool(a.flags.help))
    return process.stdout.write("Usage: agentmux panel <session-dir>\n\nThe completion panel: approve (writes approval.json) or request changes (writes changes.md).\n"), 0;
  const dir = a.positionals[0];
  if (!dir) throw usage("panel", "missing <session-dir>");
  const { runPanel } = await import("../tui/panel-app.ts");
  return runPanel(resolve(dir));
}

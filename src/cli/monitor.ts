import { resolve } from "node:path";
import { bool, parseArgs, usage } from "./args.ts";

export async function run(argv: string[]): Promise<number> {
  const a = parseArgs("monitor", argv, { flags: {}, maxPositionals: 1 });
  if (bool(a.flags.help)) return process.stdout.write("Usage: agentmux monitor <session-dir>\n\nThe pipeline monitor shown in the control pane.\n"), 0;
  const dir = a.positionals[0];
  if (!dir) throw usage("monitor", "missing <session-dir>");
  const { runMonitor } = await import("../tui/monitor-app.ts");
  return runMonitor(resolve(dir));
}

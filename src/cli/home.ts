import { bool, parseArgs } from "./args.ts";
import { findProjectDir } from "../session/project.ts";

export async function run(argv: string[]): Promise<number> {
  const a = parseArgs("home", argv, { flags: {}, maxPositionals: 0 });
  if (bool(a.flags.help)) return process.stdout.write("Usage: agentmux   (no arguments, in a terminal)\n\nThe home screen: sessions, new run, resume, attach, delete.\n"), 0;
  const { runHome } = await import("../tui/home-app.ts");
  return runHome(findProjectDir());
}

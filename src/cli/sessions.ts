import { bool, parseArgs } from "./args.ts";
import { listSessions } from "../session/list.ts";
import { findProjectDir } from "../session/project.ts";
import { colorEnabled, toAnsi } from "../views/line.ts";
import { sessionsJson, sessionsTable } from "../views/sessions.ts";

const HELP = `Usage: agentmux sessions [--json]

List this project's sessions, newest first: id, phase, last event, last update, live/stopped.
`;

export async function run(argv: string[]): Promise<number> {
  const a = parseArgs("sessions", argv, { flags: { json: { type: "boolean" } }, maxPositionals: 0 });
  if (bool(a.flags.help)) return process.stdout.write(HELP), 0;
  const list = await listSessions(findProjectDir());
  if (bool(a.flags.json)) {
    process.stdout.write(JSON.stringify(sessionsJson(list), null, 2) + "\n");
    return 0;
  }
  const color = colorEnabled(process.stdout);
  const width = process.stdout.columns || 120;
  process.stdout.write(sessionsTable(list, width).map((l) => toAnsi(l, { color })).join("\n") + "\n");
  return 0;
}

import type { ParsedArgs } from "./args.ts";
import type { sessions } from "./specs/sessions.ts";
import { listSessions } from "../session/list.ts";
import { findProjectDir } from "../session/project.ts";
import { colorEnabled, toAnsi } from "../views/line.ts";
import { sessionsJson, sessionsTable } from "../views/sessions.ts";
import { terminalJson } from "../schema/inert-text.ts";

export async function run(a: ParsedArgs<typeof sessions>): Promise<number> {
  const list = await listSessions(findProjectDir());
  if (a.flags.json) {
    process.stdout.write(terminalJson(sessionsJson(list), 2) + "\n");
    return 0;
  }
  const color = colorEnabled(process.stdout);
  const width = process.stdout.columns || 120;
  process.stdout.write(
    sessionsTable(list, width)
      .map((l) => toAnsi(l, { color }))
      .join("\n") + "\n",
  );
  return 0;
}

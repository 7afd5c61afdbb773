import { NeedsTerminal } from "./errors.ts";
import type { ParsedArgs } from "./args.ts";
import type { clean } from "./specs/sessions.ts";
import { listSessions, type SessionSummary } from "../session/list.ts";
import { resolveSession } from "../session/resolve.ts";
import { removeSession } from "../session/remove.ts";
import { findProjectDir } from "../session/project.ts";

export async function run(a: ParsedArgs<typeof clean>): Promise<number> {
  const project = findProjectDir();
  const targets: SessionSummary[] = a.positionals.length
    ? await Promise.all(a.positionals.map((p) => resolveSession(project, p)))
    : await listSessions(project);
  const unique = [...new Map(targets.map((t) => [t.dir, t])).values()];
  if (!unique.length) {
    process.stdout.write("Nothing to clean: no sessions in this project.\n");
    return 0;
  }
  const live = unique.filter((s) => s.live && s.state);
  process.stdout.write(`This removes ${unique.length} session folder${unique.length === 1 ? "" : "s"}:\n`);
  for (const s of unique) process.stdout.write(`  ${s.dir}${s.error ? "  (unreadable state.json)" : ""}\n`);
  if (live.length) {
    process.stdout.write(`and stops ${live.length} live run${live.length === 1 ? "" : "s"} (orchestrator, agents and tmux session):\n`);
    for (const s of live) process.stdout.write(`  ${s.state!.session_name} (socket ${s.socket})\n`);
  }
  if (!a.flags.force) {
    if (!process.stdin.isTTY) throw new NeedsTerminal({ command: "clean" });
    const answer = (prompt("Proceed? [y/N]") ?? "").trim().toLowerCase();
    if (answer !== "y" && answer !== "yes") {
      process.stdout.write("Nothing removed.\n");
      return 1;
    }
  }
  let stopped = 0;
  for (const s of unique) {
    if (s.live) process.stdout.write(`Stopping the run ${s.id}…\n`);
    const r = await removeSession(s);
    if (r.stopped || r.killedTmux) stopped++;
    for (const n of r.notes) process.stdout.write(`  ${s.id}: ${n}\n`);
  }
  process.stdout.write(
    `Removed ${unique.length} session${unique.length === 1 ? "" : "s"}${stopped ? `, stopped ${stopped} live run${stopped === 1 ? "" : "s"}` : ""}.\n`,
  );
  return 0;
}

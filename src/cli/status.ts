import { existsSync, watch } from "node:fs";
import { join } from "node:path";
import { bool, parseArgs } from "./args.ts";
import { resolveSession } from "../session/list.ts";
import { F } from "../session/paths.ts";
import { findProjectDir } from "../session/project.ts";
import { countLines, readSessionData } from "../session/data.ts";
import { colorEnabled, toAnsi } from "../views/line.ts";
import { statusJson, statusView, type StatusInput } from "../views/status.ts";

const HELP = `Usage: agentmux status [session] [--json] [--watch]

Show a session's phase, timeline, agents, groups, reviews and research — works on live,
finished and failed sessions, without tmux. [session] is an id, a path, or (default) the newest.

Options:
  --json    print one JSON object (stable field names)
  --watch   redraw whenever the session's files change (Ctrl-C to stop)
`;

async function load(arg: string | undefined): Promise<StatusInput> {
  const s = await resolveSession(findProjectDir(), arg);
  const data = readSessionData(s.dir);
  return { ...data, id: s.id, live: s.live, toolEvents: countLines(join(s.dir, F.toolEvents)), now: Date.now() };
}

function render(d: StatusInput): string {
  const width = process.stdout.columns || 100;
  const color = colorEnabled(process.stdout);
  return statusView(d, width).map((l) => toAnsi(l, { color })).join("\n") + "\n";
}

export async function run(argv: string[]): Promise<number> {
  const a = parseArgs("status", argv, { flags: { json: { type: "boolean" }, watch: { type: "boolean" } }, maxPositionals: 1 });
  if (bool(a.flags.help)) return process.stdout.write(HELP), 0;
  const arg = a.positionals[0];
  const first = await load(arg);
  if (bool(a.flags.json)) {
    process.stdout.write(JSON.stringify(statusJson(first), null, 2) + "\n");
    return 0;
  }
  if (!bool(a.flags.watch)) {
    process.stdout.write(render(first));
    return 0;
  }
  const arg2 = first.dir;
  const draw = (d: StatusInput) => process.stdout.write("\x1b[H\x1b[2J" + render(d));
  draw(first);
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new Promise<number>((done) => {
    const stop = () => (clearTimeout(timer), w.close(), done(0));
    const w = watch(first.dir, () => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          load(arg2).then(
            (d) => {
              draw(d);
              // a finished run has nothing more to show
              if (d.state.phase === "done" || d.state.phase === "failed") stop();
            },
            () => {
              if (!existsSync(arg2)) stop(); // the folder was removed after a successful commit
            },
          ),
        30,
      );
    });
    w.on("error", () => stop());
    process.once("SIGINT", stop);
    if (first.state.phase === "done" || first.state.phase === "failed") stop();
  });
}

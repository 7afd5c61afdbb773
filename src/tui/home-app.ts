import { watch, type FSWatcher } from "node:fs";
import { selfCommand } from "../effects/process/self.ts";
import { runInTerminal } from "../effects/process/run.ts";
import { listSessions, type SessionSummary } from "../session/list.ts";
import { removeSession } from "../session/remove.ts";
import { sessionsRoot } from "../protocol/paths.ts";
import { requestCancel } from "../session/cancel.ts";
import { findRepoRoot } from "../effects/git/repo.ts";
import { blessed, createScreen, linesToContent } from "./blessed.ts";
import { question } from "./overlay.ts";
import { fit, seg, wrapText, type Line } from "../views/line.ts";
import { runOf, sessionsTable } from "../views/sessions.ts";

const KEYS = "↑/↓ select · n new run · r resume · a attach · c cancel · d delete · q quit";

/** What the user chose to do after leaving the screen. */
type Next = { args: string[]; tmux?: boolean } | undefined;

export function homeHeader(projectDir: string, count: number): Line[] {
  return [[seg("agentmux", "cyan", "bold"), seg(`  ${projectDir}`, "dim")], [seg(`${count} session${count === 1 ? "" : "s"}`, "dim")], []];
}

/** Why `r` cannot resume this session (said on the status line: the home screen stays), if it cannot. */
export function notResumable(s: SessionSummary): string | undefined {
  if (s.live) return `${s.id} is running — press a to attach`;
  // the table's LAST EVENT column shows the read error itself
  const run = runOf(s);
  if (!run) return `${s.id} cannot be resumed: its state.json is unreadable — d deletes it`;
  if (s.archived || run.phase === "done") {
    const commit = run.commit_hash ? ` (commit ${run.commit_hash.slice(0, 7)})` : "";
    return `${s.id} finished${commit}: nothing to resume`;
  }
  return undefined;
}

/** A status-line notice as up to `max` lines of the screen's width, the last cut with "…" when more is left. */
function noticeLines(msg: string, width: number, max = 3): Line[] {
  const wrapped = wrapText(msg, width);
  const shown = wrapped.slice(0, max);
  if (wrapped.length > max) shown[max - 1] = `${shown[max - 1]} ${wrapped.slice(max).join(" ")}`;
  return shown.map((l) => fit([seg(l, "yellow")], width));
}

/** `agentmux` in a terminal: the project's sessions; start, resume, attach or delete runs. */
export async function runHome(projectDir: string): Promise<number> {
  let sessions: SessionSummary[] = await listSessions(projectDir);
  let selected = 0;
  let modal = false;
  const screen = createScreen();
  // lines are cut to the width by the views: blessed must not wrap them
  const body = blessed.box({ parent: screen, top: 0, left: 0, width: "100%", height: "100%-1", tags: true, wrap: false });
  const help = blessed.box({ parent: screen, bottom: 0, left: 0, width: "100%", height: 1, tags: true, wrap: false });
  // a notice longer than the screen wraps onto the lines above (up to 3: what to do is at its end), then ends with "…"
  const status = (msg?: string) => {
    const width = screen.width as number;
    const lines = msg ? noticeLines(msg, width) : [fit([seg(KEYS, "dim")], width)];
    help.height = lines.length;
    body.height = `100%-${lines.length}` as unknown as number;
    help.setContent(linesToContent(lines));
  };
  // a folder in no git repository has no runs to start: say so where the sessions would be, not "start one with agentmux run"
  let inRepo = await findRepoRoot(projectDir).then(
    () => true,
    () => false,
  );
  const draw = () => {
    selected = Math.max(0, Math.min(selected, sessions.length - 1));
    const width = screen.width as number;
    const lines = [
      ...homeHeader(projectDir, sessions.length).map((l) => fit(l, width)),
      ...(sessions.length || inRepo
        ? sessionsTable(sessions, width, sessions.length ? selected : undefined)
        : wrapText(
            `${projectDir} is not a git repository. agentmux works on a branch and commits the result: run git init and make a first commit here (then agentmux init sets the project up), or start agentmux in your project.`,
            width,
          ).map((l) => [seg(l, "yellow")])),
    ];
    body.setContent(linesToContent(lines));
    screen.render();
  };
  const refresh = async () => {
    sessions = await listSessions(projectDir);
    draw();
  };
  // every session's state.json, live: a run that moves on, waits for approval or asks shows at once
  let watcher: FSWatcher | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const changed = (_e: string, name: string | null) => {
    const n = String(name ?? "");
    if (n && n.includes("/") && !/(^|\/)\.?state\.json/.test(n)) return; // tool events, logs, prompts
    clearTimeout(timer);
    timer = setTimeout(refresh, 50);
  };
  const startWatch = () => {
    try {
      watcher = watch(sessionsRoot(projectDir), { recursive: true }, changed);
      watcher.on("error", () => {});
    } catch {
      // no sessions folder yet: look again in a second (a run started elsewhere makes it)
    }
  };
  startWatch();
  const retry = setInterval(() => (watcher ? clearInterval(retry) : (startWatch(), watcher && refresh())), 1000);
  let leave!: (n: Next) => void;
  const chosen = new Promise<Next>((r) => (leave = r));
  const current = () => sessions[selected];

  // a message is about the selected session or the last action: moving on clears it (status())
  screen.key(["up", "k"], () => !modal && (selected--, status(), draw()));
  screen.key(["down", "j"], () => !modal && (selected++, status(), draw()));
  screen.key(["q", "C-c"], () => !modal && leave(undefined));
  screen.key(["r"], () => {
    const s = current();
    if (modal || !s) return;
    const why = notResumable(s);
    if (why) return (status(why), screen.render());
    leave({ args: ["resume", s.id] });
  });
  screen.key(["a"], () => {
    const s = current();
    if (modal || !s?.state) return;
    if (!s.live) return (status(`${s.id} is not running — press r to resume`), screen.render());
    leave({ args: ["attach", s.id] });
  });
  screen.key(["c"], () => {
    const s = current();
    if (modal || !s?.state) return;
    if (!s.live) return (status(`${s.id} is not running`), screen.render());
    modal = true;
    status();
    question(screen, `Cancel the run ${s.id}? y/N`, (yes) => {
      modal = false;
      if (yes) {
        requestCancel(s.dir, "home");
        status(`cancel requested for ${s.id}; resume it later with r`);
      }
      draw();
    });
  });
  screen.key(["d"], () => {
    const s = current();
    if (modal || !s) return;
    modal = true;
    status();
    question(screen, `Delete ${s.id}${s.live ? " and kill its tmux session" : ""}? y/N`, async (yes) => {
      modal = false;
      if (yes)
        await removeSession(s).then(
          () => status(`deleted ${s.id}`),
          (e) => status(String((e as Error).message)),
        );
      await refresh();
    });
  });
  screen.key(["n"], async () => {
    if (modal) return;
    // a run needs a git repository: say so before taking a request, not after
    if (
      !(await findRepoRoot(projectDir).then(
        () => true,
        () => false,
      ))
    ) {
      status(`${projectDir} is not a git repository: run git init and make a first commit, then press n`);
      return screen.render();
    }
    inRepo = true; // made one meanwhile: the screen stops saying it is not
    modal = true;
    status();
    const form = blessed.textbox({
      parent: screen,
      label: " What should agentmux build? (Enter starts, Esc cancels) ",
      bottom: 1,
      left: 0,
      width: "100%",
      height: 3,
      border: { type: "line" },
      inputOnFocus: true,
    });
    form.readInput((_err: unknown, value?: string) => {
      form.destroy();
      modal = false;
      const text = (value ?? "").trim();
      if (text) leave({ args: ["run", text] });
      else draw();
    });
    screen.render();
  });
  screen.on("resize", draw);
  status();
  draw();
  const next = await chosen;
  clearInterval(retry);
  clearTimeout(timer);
  watcher?.close();
  screen.destroy();
  if (!next) return 0;
  // asked now, not when the screen opened: a binary reinstalled meanwhile is the one started
  return runInTerminal([...selfCommand(), ...next.args], next.tmux ? { env: { TMUX: undefined } } : {});
}

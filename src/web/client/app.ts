import type { RunEvent } from "../../schema/run-api/event.ts";
import type { RunSnapshot, Waiting } from "../../schema/run-api/snapshot.ts";
import type { RunRow, RunView } from "../source.ts";
import { clock, duration, getJson, h, meta, money, replace, type Seg } from "./dom.ts";
import { RunPage } from "./run-page.ts";

/**
 * The page: `#/` lists every run of the server's projects, `#/run/<project>/<id>` shows one.
 * One event stream per view keeps it current; nothing polls.
 */
const main = document.getElementById("main")!;
const conn = document.getElementById("conn")!;
const answering = meta("agentmux-answer") === "on";
document.getElementById("mode")!.textContent = answering
  ? "answering is on: this page can approve, request changes, go on and cancel"
  : "read-only (agentmux serve --answer lets this page answer)";

let stream: EventSource | null = null;
let view: { run(r: RunView, events: RunEvent[]): void; log?(lines: Seg[][], reset: boolean): void } | null = null;

function listen(run: string | null): void {
  stream?.close();
  stream = new EventSource(run ? `/events?run=${encodeURIComponent(run)}` : "/events");
  stream.addEventListener("open", () => ((conn.textContent = "● live"), conn.classList.add("on")));
  stream.addEventListener("error", () => ((conn.textContent = "reconnecting…"), conn.classList.remove("on")));
  stream.addEventListener("run", (e) => {
    const { events, ...run } = JSON.parse((e as MessageEvent).data) as RunView & { events: RunEvent[] };
    view?.run(run, events);
  });
  stream.addEventListener("log", (e) => {
    const d = JSON.parse((e as MessageEvent).data);
    view?.log?.(d.lines, d.reset);
  });
}

const phaseClass = (s: RunSnapshot) => (s.phase === "failed" ? "bad" : s.phase === "done" ? "good" : s.interruption ? "warn" : "busy");

/** What the run waits for, in a few words. */
function waitText(w: Waiting): string {
  switch (w.kind) {
    case "decision":
      return "waits for your approval";
    case "agent_input":
      return `${w.agent} asks${w.question ? `: ${w.question.text}` : ""}`;
    case "usage_limit":
      return `${w.agent} waits out a usage limit${w.limit ? `: ${w.limit.text}` : ""}`;
    case "stuck_agent":
      return `${w.agent} is stuck${w.note ? `: ${w.note}` : ""}`;
    case "budget":
      return `paused at its budget: ${w.text}`;
  }
}

/** The projects' folder names, shown on the cards when the server shows more than one project. */
let projectNames: string[] = [];

function runCard(r: RunRow): HTMLElement {
  const s = r.run?.snapshot;
  const href = `#/run/${r.project}/${encodeURIComponent(r.id)}`;
  if (!s) return h("a", { class: "card", href }, h("div", { class: "title" }, r.id), h("div", { class: "bad" }, r.error ?? "unreadable"));
  const waits = s.waiting_for.map((w) => h("div", { class: "waits" }, waitText(w)));
  const blocking = s.checks?.blocking.length ? h("div", { class: "bad small" }, `checks blocking: ${s.checks.blocking.join(", ")}`) : null;
  const cost = s.usage ? money(s.usage.cost_usd) : "";
  return h(
    "a",
    { class: `card${s.waiting_for.length ? " attention" : ""}`, href, "data-file": `${r.project}/${r.id}` },
    h(
      "div",
      { class: "row" },
      h("span", { class: `dot ${s.live ? "on" : ""}`, title: s.live ? "running" : "stopped" }),
      h("span", { class: "title" }, s.feature),
    ),
    h(
      "div",
      { class: "row small" },
      h("span", { class: `phase ${phaseClass(s)}` }, s.phase),
      h("span", { class: "muted" }, `${s.last_event_label} · ${clock(s.updated_at)} · ${duration(s.active_ms)}${cost ? ` · ${cost}` : ""}`),
    ),
    ...waits,
    blocking,
    h("div", { class: "muted small id" }, projectNames.length > 1 ? `${projectNames[r.project] ?? ""} · ${r.id}` : r.id),
  );
}

async function showList(): Promise<void> {
  const list = h("section", { class: "runs" });
  replace(main, h("h1", {}, "Runs"), list);
  const rows = new Map<string, RunRow>();
  const draw = () => {
    const sorted = [...rows.values()].sort((a, b) => (b.run?.snapshot.updated_at ?? "").localeCompare(a.run?.snapshot.updated_at ?? ""));
    replace(
      list,
      ...(sorted.length ? sorted.map(runCard) : [h("p", { class: "muted" }, 'No runs yet in this project. Start one with agentmux run "…" or agentmux demo.')]),
    );
  };
  view = {
    run(run) {
      rows.set(`${run.project}/${run.id}`, { project: run.project, id: run.id, run, error: null });
      draw();
    },
  };
  listen(null);
  try {
    const config = await getJson<{ projects: string[] }>("/api/config");
    projectNames = config.projects.map((p) => p.split("/").filter(Boolean).pop() ?? p);
    const { runs } = await getJson<{ runs: RunRow[] }>("/api/runs");
    for (const r of runs) if (!rows.has(`${r.project}/${r.id}`)) rows.set(`${r.project}/${r.id}`, r);
    draw();
  } catch (e) {
    replace(list, h("p", { class: "bad" }, `cannot list the runs: ${(e as Error).message}`));
  }
}

async function showRun(project: number, id: string): Promise<void> {
  const v = new RunPage(main, project, id, answering);
  view = v;
  listen(`${project}/${id}`);
  await v.load();
}

function route(): void {
  const m = /^#\/run\/(\d+)\/(.+)$/.exec(location.hash);
  if (m) void showRun(Number(m[1]), decodeURIComponent(m[2]!));
  else void showList();
}

window.addEventListener("hashchange", route);
route();

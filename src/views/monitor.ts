import { costText, tokensText } from "./usage.ts";
import { usageByAgent, usageTotal } from "../report/usage.ts";
import { join } from "node:path";
import { eventLabel, phaseEnded } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";
import type { SessionData } from "../session/data.ts";
import { blank, fit, link, seg, wrapText, type Line } from "./line.ts";
import { agentLines, phaseLabel, pipelineLines } from "./pipeline.ts";
import { agentRows } from "../report/agents.ts";
import { titleOf } from "../report/pipeline.ts";
import { clock, hhmm, ms } from "./time.ts";
import { activeMs } from "../schema/active-time.ts";
import { keyBar, keyName, type Key } from "./keys.ts";
import { checkLine, checkRowsOf } from "./check-rows.ts";

export type Size = { width: number; height: number };
/** `prefix`: the tmux prefix key of the session, as tmux spells it (`C-b`; `C-a` inside the user's own tmux). */
export type MonitorInput = SessionData & { now: number; selected?: number; prefix?: string };

/** The monitor's one-line key bar; what does not fit its width is in `?` help. */
export function monitorKeys(state: State, prefix = "C-b"): Key[] {
  const waiting = state.phase === "completing" && state.awaiting_decision === true;
  const paused = state.budget_reached?.paused === true;
  return [
    { key: "?", label: "help" },
    ...(paused ? [{ key: "g", label: "go on", drop: 1 }] : []),
    ...(waiting ? [{ key: "a", label: "approval", drop: 1 }] : []),
    { key: "Enter", label: "focus", drop: 3 },
    { key: "l", label: "output", drop: 2 },
    { key: "c", label: "cancel", drop: 4 },
    { key: `${keyName(prefix)} d`, label: "detach" },
  ];
}

/** Created files worth a log line (the rest are prompts and internals). */
const LOGGED = [
  /^requirements\.md$/,
  /^03_research\/[^/]+\/(summary|detail)\.md$/,
  /^04_planning\/(plan\.yaml|tasks(_\d+)?\.md)$/,
  /^05_design\/design\.md$/,
  /^06_implementation\/done_\d+(\.json)?$/,
  /^07_review\/(review\.md|fix_request\.md)$/,
  /^08_completion\/(summary\.md|changes\.md|approval\.json)$/,
];

const SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";

function section(name: string, width: number, extra = ""): Line {
  const head = ` ${name}${extra} `;
  return [seg("─", "dim"), seg(head, "bold"), seg("─".repeat(Math.max(0, width - head.length - 1)), "dim")];
}

/** An agent that asks (a question, a permission): who, and how to answer it (its row may be out of sight below). */
function askingLines(rows: ReturnType<typeof agentRows>, selected: number | undefined, width: number): Line[] {
  const at = rows.findIndex((r) => r.status === "needs_input");
  if (at < 0) return [];
  const more = rows.filter((r) => r.status === "needs_input").length - 1;
  const who = `? ${rows[at]!.info.label} asks you${more ? ` (+${more} more)` : ""}`;
  const move = selected === undefined || selected === at ? "" : selected < at ? "↓ to it, " : "↑ to it, ";
  return [
    ...wrapText(who, width).map((l): Line => [seg(l, "magenta", "bold")]),
    ...wrapText(`${move}Enter: answer in its pane`, width - 2).map((l): Line => [seg(`  ${l}`, "dim")]),
  ];
}

function researchLines(state: State, now: number, width: number): Line[] {
  const tasks = [
    ...Object.entries(state.research_tasks ?? {}).map(([t, s]) => ({ t, s, k: "c" })),
    ...Object.entries(state.web_research_tasks ?? {}).map(([t, s]) => ({ t, s, k: "w" })),
  ];
  if (!tasks.length) return [];
  const done = tasks.filter((x) => x.s === "done").length;
  const frame = SPINNER[Math.floor(now / 100) % SPINNER.length]!;
  return [
    section("RESEARCH", width, ` ${done}/${tasks.length}`),
    ...tasks.map((x): Line => (x.s === "done" ? [seg(" ✓ ", "green"), seg(`${x.k}· ${x.t}`, "dim")] : [seg(` ${frame} `, "cyan"), seg(`${x.k}· ${x.t}`)])),
  ];
}

/** How many check rows the monitor shows (the latest; `agentmux status` lists them all). */
const CHECK_ROWS = 6;

/** CHECKS: a line per check per round, the latest last; the header counts the latest round's passes. */
export function checkSection(state: State, now: number, width: number): Line[] {
  const { rows, rounds } = checkRowsOf(state);
  if (!rows.length) return [];
  const last = Math.max(...rows.map((r) => r.round));
  const current = rows.filter((r) => r.round === last);
  const passed = current.filter((r) => r.state === "passed").length;
  return [section("CHECKS", width, ` ${passed}/${current.length}`), ...rows.slice(-CHECK_ROWS).map((r) => checkLine(r, now, rounds))];
}

/** Time-sorted log: phase transitions (`> label`) and created files (`+ path`, OSC 8 link). */
export function logLines(d: SessionData): Line[] {
  const items: { at: number; line: Line }[] = [];
  for (const h of d.state.history ?? []) {
    const at = ms(h.at);
    if (at !== undefined) items.push({ at, line: [seg(hhmm(at) + " ", "dim"), seg(`> ${phaseLabel(h.phase)}`, "white"), seg(` (${eventLabel(h.event)})`, "dim")] });
  }
  for (const f of d.created) {
    if (!LOGGED.some((re) => re.test(f.path))) continue;
    items.push({ at: f.at, line: [seg(hhmm(f.at) + " ", "dim"), seg("+ ", "green"), link(f.path, "file://" + join(d.dir, f.path))] });
  }
  return items.sort((a, b) => a.at - b.at).map((x) => x.line);
}

/**
 * The control-pane monitor: header, PIPELINE, AGENTS, RESEARCH, LOG (fills the rest), footer
 * (the run's active-time clock, session) and the key bar.
 * Returns exactly `size.height` lines, none wider than `size.width`.
 */
export function monitorView(d: MonitorInput, size: Size): Line[] {
  const { state } = d;
  const w = Math.max(10, size.width);
  const top: Line[] = [];
  const title = wrapText(titleOf(state), w - 3).slice(0, 2);
  top.push([seg("AM ", "cyan", "bold"), seg(title[0] ?? "", "bold")]);
  if (title[1]) top.push([seg("   "), seg(title[1], "bold")]);
  if (state.budget_reached?.paused) {
    top.push(...wrapText("⏸ budget reached: agents paused", w).map((l): Line => [seg(l, "yellow", "bold")]));
    top.push(...wrapText(state.budget_reached.text, w - 2).map((l): Line => [seg(`  ${l}`, "dim")]), [seg("  g: go on · c: cancel", "dim")]);
  }
  if (state.phase === "completing" && state.awaiting_decision) top.push([seg("⏸ waiting for your approval", "yellow", "bold")], [seg("  a: open the approval panel", "dim")]);
  const rows = agentRows(state, d.runtime);
  if (!phaseEnded(state.phase)) top.push(...askingLines(rows, d.selected, w));
  top.push(section("PIPELINE", w), ...pipelineLines(state));
  if (rows.length) {
    top.push(section("AGENTS", w));
    const used = usageByAgent(state);
    rows.forEach((r, i) => top.push(...agentLines(r, i === d.selected, used[r.key], w)));
  }
  top.push(...researchLines(state, d.now, w));
  top.push(...checkSection(state, d.now, w));
  const keys = keyBar(monitorKeys(state, d.prefix), w, 1);
  const footerH = 2 + keys.length;
  const body = top.slice(0, Math.max(0, size.height - footerH - 2));
  const room = size.height - footerH - body.length;
  const log = logLines(d);
  const logPart: Line[] = room >= 2 ? [section("LOG", w), ...log.slice(-(room - 1))] : [];
  const lines = [...body, ...logPart];
  while (lines.length < size.height - footerH) lines.push(blank());
  const endAt = phaseEnded(state.phase) ? (ms(state.updated_at) ?? d.now) : d.now;
  lines.push([seg("─".repeat(w), "dim")]);
  const total = usageTotal(state);
  const spend = total ? [seg(`Σ ${tokensText(total.tokens)} tok ${costText(total)}`, state.budget_reached ? "yellow" : "white"), seg(" │ ", "dim")] : [];
  lines.push([seg(`◷ ${clock(activeMs(state, endAt))}`, "cyan"), seg(" │ ", "dim"), ...spend, seg(state.session_name, "dim")]);
  lines.push(...keys);
  return lines.slice(-size.height).map((l) => fit(l, w));
}

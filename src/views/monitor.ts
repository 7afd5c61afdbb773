import { costText, tokensText } from "./usage.ts";
import { join } from "node:path";
import { eventLabel } from "../schema/catalog.ts";
import type { RunSnapshot } from "../schema/run-api/snapshot.ts";
import type { ChecksSnapshot } from "../schema/run-api/checks.ts";
import { blank, fit, link, seg, wrapText, type Line } from "./line.ts";
import { agentLines, phaseLabel, pipelineLines } from "./pipeline.ts";
import { clock, hhmm, ms } from "./time.ts";
import { keyBar, keyName, type Key } from "./keys.ts";
import { checkLine } from "./check-rows.ts";
import { ellipsize } from "./width.ts";

export type Size = { width: number; height: number };
/**
 * What the monitor draws: the run's snapshot (the run API, report/snapshot.ts) and where the
 * user is. `prefix`: the tmux prefix key of the session, as tmux spells it (`C-b`; `C-a` inside
 * the user's own tmux).
 */
export type MonitorInput = { run: RunSnapshot; now: number; selected?: number; prefix?: string };

/** The agents paused at the budget: what the budget said. */
export const budgetPause = (run: RunSnapshot) => run.waiting_for.find((w) => w.kind === "budget");

/** The monitor's one-line key bar; what does not fit its width is in `?` help. */
export function monitorKeys(run: RunSnapshot, prefix = "C-b"): Key[] {
  const waiting = run.awaiting_decision;
  const paused = budgetPause(run) !== undefined;
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

const SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";

function section(name: string, width: number, extra = ""): Line {
  const head = ` ${name}${extra} `;
  return [seg("─", "dim"), seg(head, "bold"), seg("─".repeat(Math.max(0, width - head.length - 1)), "dim")];
}

/** How many lines of an agent's question the top of the monitor shows (its row shows the start of the rest). */
const QUESTION_LINES = 3;

/**
 * An agent that asks (a question, a permission): who, what it asks (the question's own line: a
 * dialog's text starts with it, what it is about and its choices follow after " · "), and how
 * to answer it (its row may be out of sight below).
 */
function askingLines(run: RunSnapshot, selected: number | undefined, width: number): Line[] {
  const waiting = run.waiting_for.flatMap((w) => (w.kind === "agent_input" ? [w] : []));
  const asking = new Set(waiting.map((w) => w.agent));
  const at = run.agents.findIndex((a) => asking.has(a.key));
  if (at < 0) return [];
  const more = asking.size - 1;
  const who = `? ${run.agents[at]!.label} asks you${more ? ` (+${more} more)` : ""}`;
  const move = selected === undefined || selected === at ? "" : selected < at ? "↓ to it, " : "↑ to it, ";
  const question =
    waiting
      .find((w) => w.agent === run.agents[at]!.key)
      ?.question?.text.split(" · ")[0]
      ?.trim() ?? "";
  const asked = wrapText(question, width - 2);
  const shown =
    asked.length > QUESTION_LINES ? [...asked.slice(0, QUESTION_LINES - 1), `${asked[QUESTION_LINES - 1]!.slice(0, Math.max(0, width - 3))}…`] : asked;
  return [
    ...wrapText(who, width).map((l): Line => [seg(l, "magenta", "bold")]),
    ...(question ? shown.map((l): Line => [seg(`  ${l}`, "magenta")]) : []),
    ...wrapText(`${move}Enter: answer in its pane`, width - 2).map((l): Line => [seg(`  ${l}`, "dim")]),
  ];
}

function researchLines(run: RunSnapshot, now: number, width: number): Line[] {
  const tasks = [
    ...Object.entries(run.research.code).map(([t, s]) => ({ t, s, k: "c" })),
    ...Object.entries(run.research.web).map(([t, s]) => ({ t, s, k: "w" })),
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
export function checkSection(checks: ChecksSnapshot, now: number, width: number): Line[] {
  const rows = checks.results;
  if (!rows.length) return [];
  const rounds = new Set(rows.map((r) => r.round)).size;
  const last = Math.max(...rows.map((r) => r.round));
  const current = rows.filter((r) => r.round === last);
  const passed = current.filter((r) => r.state === "passed").length;
  return [section("CHECKS", width, ` ${passed}/${current.length}`), ...rows.slice(-CHECK_ROWS).map((r) => checkLine(r, now, rounds, true))];
}

/** Time-sorted log: phase transitions (`> label`) and created files (`+ path`, OSC 8 link). */
export function logLines(run: RunSnapshot): Line[] {
  const items: { at: number; line: Line }[] = [];
  for (const t of run.timeline) {
    const at = ms(t.at);
    if (at !== undefined)
      items.push({ at, line: [seg(hhmm(at) + " ", "dim"), seg(`> ${phaseLabel(t.phase)}`, "white"), seg(` (${eventLabel(t.event)})`, "dim")] });
  }
  for (const f of run.files) {
    const at = ms(f.at);
    if (at !== undefined) items.push({ at, line: [seg(hhmm(at) + " ", "dim"), seg("+ ", "green"), link(f.path, "file://" + join(run.dir, f.path))] });
  }
  return items.sort((a, b) => a.at - b.at).map((x) => x.line);
}

/**
 * The control-pane monitor: header, PIPELINE, AGENTS, RESEARCH, LOG (fills the rest), footer
 * (the run's active-time clock, session) and the key bar.
 * Returns exactly `size.height` lines, none wider than `size.width`.
 */
export function monitorView(d: MonitorInput, size: Size): Line[] {
  const { run } = d;
  const w = Math.max(10, size.width);
  const top: Line[] = [];
  const wrapped = wrapText(run.feature, w - 3);
  const title = wrapped.slice(0, 2);
  if (wrapped.length > 2) title[1] = ellipsize(`${title[1]} ${wrapped[2]}`, w - 3).replace(/\s+…$/, "…");
  top.push([seg("AM ", "cyan", "bold"), seg(title[0] ?? "", "bold")]);
  if (title[1]) top.push([seg("   "), seg(title[1], "bold")]);
  const paused = budgetPause(run);
  if (paused) {
    top.push(...wrapText("⏸ budget reached: agents paused", w).map((l): Line => [seg(l, "yellow", "bold")]));
    top.push(...wrapText(paused.text, w - 2).map((l): Line => [seg(`  ${l}`, "dim")]), [seg("  g: go on · c: cancel", "dim")]);
  }
  if (run.awaiting_decision) top.push([seg("⏸ waiting for your approval", "yellow", "bold")], [seg("  a: open the approval panel", "dim")]);
  top.push(...askingLines(run, d.selected, w));
  top.push(section("PIPELINE", w), ...pipelineLines(run));
  if (run.agents.length) {
    top.push(section("AGENTS", w));
    run.agents.forEach((a, i) => top.push(...agentLines(a, i === d.selected, w)));
  }
  top.push(...researchLines(run, d.now, w));
  top.push(...checkSection(run.checks, d.now, w));
  const keys = keyBar(monitorKeys(run, d.prefix), w, 1);
  const footerH = 2 + keys.length;
  const body = top.slice(0, Math.max(0, size.height - footerH - 2));
  const room = size.height - footerH - body.length;
  const log = logLines(run);
  const logPart: Line[] = room >= 2 ? [section("LOG", w), ...log.slice(-(room - 1))] : [];
  const lines = [...body, ...logPart];
  while (lines.length < size.height - footerH) lines.push(blank());
  lines.push([seg("─".repeat(w), "dim")]);
  const total = run.usage;
  const spend = total ? [seg(`Σ ${tokensText(total.tokens)} tok ${costText(total)}`, run.budget_reached !== null ? "yellow" : "white"), seg(" │ ", "dim")] : [];
  lines.push([seg(`◷ ${clock(run.active_ms ?? 0)}`, "cyan"), seg(" │ ", "dim"), ...spend, seg(run.session_name, "dim")]);
  lines.push(...keys);
  return lines.slice(-size.height).map((l) => fit(l, w));
}

import { cells, ellipsize } from "./width.ts";
import { costText, tokensText } from "./usage.ts";
import type { AgentSnapshot, RunSnapshot, SnapshotAgentStatus } from "../schema/run-api/snapshot.ts";
import { seg, type Line, type Style } from "./line.ts";
import { reviewLoopLabel } from "../report/review-round.ts";

export const phaseLabel = (p: string) => p.replace(/_/g, " ");

/** Pipeline lines: ✓ done / ▶ current / · pending, with detail lines under the current stage. */
export function pipelineLines(run: RunSnapshot): Line[] {
  const out: Line[] = [];
  for (const st of run.stages) {
    if (st.state === "failed") {
      out.push([seg("✗ ", "red", "bold"), seg(`failed in ${phaseLabel(st.phase)}`, "red", "bold")]);
      out.push([seg("  › "), seg(run.last_event_label, "red")]);
      if (run.interruption?.cause) out.push([seg("  › cause: "), seg(run.interruption.cause, "red")]);
    } else if (st.state === "done") {
      out.push([seg("✓ ", "green"), seg(phaseLabel(st.phase), "dim")]);
    } else if (st.state === "current") {
      out.push([seg("▶ ", "cyan", "bold"), seg(phaseLabel(st.phase), "cyan", "bold")]);
      out.push(...detailLines(run));
    } else {
      out.push([seg("· ", "dim"), seg(phaseLabel(st.phase), "dim")]);
    }
  }
  // the run's last stage: reached when it is done
  out.push(run.phase === "done" ? [seg("✓ ", "green"), seg("done", "dim")] : [seg("· ", "dim"), seg("done", "dim")]);
  return out;
}

function detailLines(run: RunSnapshot): Line[] {
  const out: Line[] = [[seg("  › "), seg(run.last_event_label, "white")]];
  const round = reviewLoopLabel(run);
  if (round) out.push([seg("  › "), seg(round, "yellow")]);
  if (run.phase === "implementing" && run.groups.total > 0) out.push(...groupLines(run.groups));
  else if (run.subplan_count > 1) out.push([seg(`  › ${run.subplan_count} subplans`, "dim")]);
  return out;
}

/** Implementation groups: done ✓, active ▶ with mode and plans, queued ·. */
export function groupLines(g: RunSnapshot["groups"]): Line[] {
  const done = g.completed_group_ids;
  const out: Line[] = [[seg(`  › groups: ${done.length}/${g.total} done`)]];
  for (const id of done) out.push([seg("  › "), seg("✓ ", "green"), seg(id, "dim")]);
  for (let n = done.length + 1; n <= g.total; n++) {
    const name = `g${n}`;
    if (n === g.index) {
      const ids = g.active_plan_ids;
      const plans = ids.length <= 2 ? ids.map((p) => `plan ${p}`).join(", ") : `${ids.length} plans`;
      const mode = g.mode ?? "serial";
      out.push([seg("  › "), seg("▶ ", "cyan"), seg(`${name} ${mode}`, "cyan"), seg(plans ? ` · ${plans}` : "", "dim")]);
    } else out.push([seg("  › "), seg(`· ${name}`, "dim")]);
  }
  return out;
}

/** A status's colour, icon and word; `stopped`: an agent of a run nobody runs now. */
export const STATUS_STYLE: Record<SnapshotAgentStatus, Style> = {
  working: "green",
  idle: "yellow",
  idle_without_submit: "yellow",
  needs_input: "magenta",
  rate_limited: "yellow",
  stuck: "red",
  exited: "dim",
  starting: "cyan",
  done: "dim",
  stopped: "dim",
};
const STATUS_ICON: Record<SnapshotAgentStatus, string> = {
  working: "●",
  idle: "○",
  idle_without_submit: "◔",
  needs_input: "?",
  rate_limited: "⏸",
  stuck: "!",
  exited: "×",
  starting: "◌",
  done: "✓",
  stopped: "·",
};
/** How a status reads in the agents list and in `status`. */
export const STATUS_LABEL: Record<SnapshotAgentStatus, string> = {
  working: "working",
  idle: "idle",
  idle_without_submit: "no submit",
  needs_input: "needs input",
  rate_limited: "rate limited",
  stuck: "stuck",
  exited: "exited",
  starting: "starting",
  done: "done",
  stopped: "stopped",
};

/**
 * Two lines per agent: `● label [ WORKING ]` and dim `provider/model`. In `width` columns the
 * label gives way first: the status and what the agent needs (its note, before its usage) stay
 * in view in a narrow monitor.
 */
export function agentLines(a: AgentSnapshot, selected: boolean, width = Infinity): Line[] {
  const st = STATUS_STYLE[a.status];
  const badge = ` [ ${STATUS_LABEL[a.status].toUpperCase()} ]`;
  const room = width - 3 - cells(badge);
  const label = ellipsize(a.label, Math.max(2, room));
  const first: Line = [
    seg(selected ? "›" : " ", "bold"),
    seg(STATUS_ICON[a.status] + " ", st),
    seg(label, ...(selected ? (["inverse"] as const) : [])),
    seg(badge, st),
  ];
  const model = a.model ? a.model.replace(new RegExp(`^${a.provider ?? ""}-`), "") : undefined;
  const second: Line = [seg("    " + [a.provider ?? "?", model].filter(Boolean).join("/"), "dim")];
  const note = a.status === "working" || a.status === "starting" ? "" : (a.detail ?? "");
  if (note) second.push(seg(` · ${note}`, st));
  if (a.usage) second.push(seg(` · ${tokensText(a.usage.tokens)} tok ${costText(a.usage)}`, "dim"));
  return [first, second];
}

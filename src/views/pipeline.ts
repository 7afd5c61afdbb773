import { cells, ellipsize } from "./width.ts";
import { costText, tokensText } from "./usage.ts";
import type { UsageSum } from "../report/usage.ts";
import { eventLabel, type Phase } from "../schema/catalog.ts";
import type { AgentInfo, State } from "../schema/state.ts";
import type { RuntimeState } from "../schema/runtime.ts";
import { seg, type Line } from "./line.ts";
import { reviewLoopLabel } from "../report/review-round.ts";
import { agentNote, type AgentRow } from "../report/agents.ts";
import { failedAt, stagesOf } from "../report/pipeline.ts";

export const phaseLabel = (p: string) => p.replace(/_/g, " ");

/** Pipeline lines: ✓ done / ▶ current / · pending, with detail lines under the current stage. */
export function pipelineLines(state: State): Line[] {
  const stages = stagesOf(state);
  const failed = state.phase === "failed";
  const cur = failed ? stages.indexOf(failedAt(state) ?? "architecting") : stages.indexOf(state.phase);
  const out: Line[] = [];
  stages.forEach((st, i) => {
    if (failed && i === cur) {
      out.push([seg("✗ ", "red", "bold"), seg(`failed in ${phaseLabel(st)}`, "red", "bold")]);
      out.push([seg("  › "), seg(eventLabel(state.last_event), "red")]);
      if (state.interruption_cause) out.push([seg("  › cause: "), seg(state.interruption_cause, "red")]);
    } else if (i < cur || (state.phase === "done" && st === "done")) {
      out.push([seg("✓ ", "green"), seg(phaseLabel(st), "dim")]);
    } else if (i === cur) {
      out.push([seg("▶ ", "cyan", "bold"), seg(phaseLabel(st), "cyan", "bold")]);
      out.push(...detailLines(state));
    } else {
      out.push([seg("· ", "dim"), seg(phaseLabel(st), "dim")]);
    }
  });
  return out;
}

function detailLines(state: State): Line[] {
  const out: Line[] = [[seg("  › "), seg(eventLabel(state.last_event), "white")]];
  const round = reviewLoopLabel(state);
  if (round) out.push([seg("  › "), seg(round, "yellow")]);
  if (state.phase === "implementing" && state.implementation_group_total > 0) out.push(...groupLines(state));
  else if (state.subplan_count > 1) out.push([seg(`  › ${state.subplan_count} subplans`, "dim")]);
  return out;
}

/** Implementation groups: done ✓, active ▶ with mode and plans, queued ·. */
export function groupLines(state: State): Line[] {
  const total = state.implementation_group_total;
  const done = state.implementation_completed_group_ids;
  const out: Line[] = [[seg(`  › groups: ${done.length}/${total} done`)]];
  for (const g of done) out.push([seg("  › "), seg("✓ ", "green"), seg(g, "dim")]);
  for (let n = done.length + 1; n <= total; n++) {
    const name = `g${n}`;
    if (n === state.implementation_group_index) {
      const ids = state.implementation_active_plan_ids;
      const plans = ids.length <= 2 ? ids.map((p) => `plan ${p}`).join(", ") : `${ids.length} plans`;
      const mode = state.implementation_group_mode ?? "serial";
      out.push([seg("  › "), seg("▶ ", "cyan"), seg(`${name} ${mode}`, "cyan"), seg(plans ? ` · ${plans}` : "", "dim")]);
    } else out.push([seg("  › "), seg(`· ${name}`, "dim")]);
  }
  return out;
}

export const STATUS_STYLE = {
  working: "green", idle: "yellow", idle_without_submit: "yellow", needs_input: "magenta", rate_limited: "yellow", stuck: "red", exited: "dim", starting: "cyan", done: "dim",
} as const;
const STATUS_ICON = { working: "●", idle: "○", idle_without_submit: "◔", needs_input: "?", rate_limited: "⏸", stuck: "!", exited: "×", starting: "◌", done: "✓" } as const;
/** How a status reads in the agents list and in `status`. */
export const STATUS_LABEL: Record<AgentInfo["status"], string> = {
  working: "working", idle: "idle", idle_without_submit: "no submit", needs_input: "needs input", rate_limited: "rate limited",
  stuck: "stuck", exited: "exited", starting: "starting", done: "done",
};

/**
 * Two lines per agent: `● label [ WORKING ]` and dim `provider/model`. In `width` columns the
 * label gives way first: the status and what the agent needs (its note, before its usage) stay
 * in view in a narrow monitor.
 */
export function agentLines(row: AgentRow, selected: boolean, usage?: UsageSum, width = Infinity): Line[] {
  const st = STATUS_STYLE[row.status];
  const badge = ` [ ${STATUS_LABEL[row.status].toUpperCase()} ]`;
  const room = width - 3 - cells(badge);
  const label = ellipsize(row.info.label, Math.max(2, room));
  const first: Line = [
    seg(selected ? "›" : " ", "bold"),
    seg(STATUS_ICON[row.status] + " ", st),
    seg(label, ...(selected ? (["inverse"] as const) : [])),
    seg(badge, st),
  ];
  const model = row.info.model ? row.info.model.replace(new RegExp(`^${row.info.provider ?? ""}-`), "") : undefined;
  const second: Line = [seg("    " + [row.info.provider ?? "?", model].filter(Boolean).join("/"), "dim")];
  const note = row.status === "working" || row.status === "starting" ? "" : agentNote(row.info, row.status);
  if (note) second.push(seg(` · ${note}`, st));
  if (usage) second.push(seg(` · ${tokensText(usage.tokens)} tok ${costText(usage)}`, "dim"));
  return [first, second];
}

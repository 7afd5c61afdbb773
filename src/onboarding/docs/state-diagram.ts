import { PHASE_MARKS, PHASE_MOVES, START_PHASES } from "../../schema/moves.ts";
import { markdownTable } from "./schema-table.ts";

/** The move table as a Mermaid state diagram: one edge per (from, to), its events joined. */
export function stateDiagram(): string {
  const edges = new Map<string, string[]>();
  for (const m of PHASE_MOVES) {
    const key = `${m.from} --> ${m.to}`;
    const events = edges.get(key) ?? [];
    if (!events.includes(m.event)) events.push(m.event);
    edges.set(key, events);
  }
  return [
    "```mermaid",
    "stateDiagram-v2",
    ...START_PHASES.map((s) => `  [*] --> ${s.phase}: feature_created`),
    ...[...edges].map(([edge, events]) => `  ${edge}: ${events.join(" / ")}`),
    "  done --> [*]",
    "  failed --> [*]",
    ...PHASE_MARKS.map((m) => `  note right of ${m.phase}: ${m.event}, ${m.when}`),
    "```",
  ].join("\n");
}

/** The move table in prose: from, to, the recorded event, and what causes the move. */
export function movesTable(): string {
  const rows = [
    ...START_PHASES.map((s) => ["(new run)", `\`${s.phase}\``, "`feature_created`", s.when]),
    ...PHASE_MOVES.filter((m) => m.to !== "failed").map((m) => [`\`${m.from}\``, `\`${m.to}\``, `\`${m.event}\``, m.when]),
    ...PHASE_MARKS.map((m) => [`\`${m.phase}\``, `\`${m.phase}\``, `\`${m.event}\``, `${m.when} (recorded, no move)`]),
  ];
  const failing = [...new Map(PHASE_MOVES.filter((m) => m.to === "failed").map((m) => [m.event, m.when])).entries()];
  return [
    markdownTable(["from", "to", "event", "when"], rows),
    "",
    `Every working phase may also end in \`failed\`: ${failing.map(([e, when]) => `\`${e}\` (${when})`).join("; ")}.`,
    "`agentmux resume` starts a failed or interrupted run again in a working phase with the event `resumed`.",
  ].join("\n");
}

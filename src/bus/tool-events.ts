import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArtifact } from "../artifacts/parse.ts";
import { formatProblem, zodProblems } from "../artifacts/problems.ts";
import type { ArtifactKind, ArtifactValue } from "../artifacts/kinds.ts";
import { ROLE_TOOLS, TOOL_PHASES, type Phase } from "../schema/catalog.ts";
import type { Event } from "../schema/events.ts";
import { ToolPayloadSchema, type Snapshot, type ToolEventLine, type TypedToolEventLine } from "../schema/tool-events.ts";
import { checkSeal, type SealKey } from "./tool-seal.ts";

/**
 * What applying a line checks against: the run's seal key, its phase now, the last applied seq,
 * and (while the orchestrator that appends the lines runs) whether it appended this very line.
 */
export type ApplyContext = { sessionDir: string; key: SealKey; phase: Phase; appliedSeq: number; own?: (seq: number, text: string) => boolean };

/** A line becomes an event (with its seq when sealed), or is skipped: its seq was applied already. */
export type LineOutcome = { event: Event; seq?: number } | { skip: true; seq: number };

const rejected = (line: Pick<ToolEventLine, "timestamp" | "tool">, reason: string): { event: Event } => ({
  event: { type: "tool_rejected", at: line.timestamp, tool: line.tool, reason },
});

/** A sealed line refused: its seq counts as applied. */
const refused = (line: Pick<ToolEventLine, "timestamp" | "tool">, seq: number, reason: string): LineOutcome => ({ ...rejected(line, reason), seq });

type Read<K extends ArtifactKind> = { ok: true; value: ArtifactValue<K> } | { ok: false; reason: string };

/** The snapshot the endpoint kept, checked against its hash and parsed as `kind`. */
function readSnapshot<K extends ArtifactKind>(sessionDir: string, kind: K, snap: Snapshot | undefined, what: string): Read<K> {
  if (!snap) return { ok: false, reason: `${what}: the line names no snapshot of the validated file` };
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(sessionDir, snap.path));
  } catch (e) {
    return { ok: false, reason: `${what}: its snapshot ${snap.path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  if (createHash("sha256").update(bytes).digest("hex") !== snap.sha256)
    return { ok: false, reason: `${what}: its snapshot ${snap.path} was changed after the call was accepted (SHA-256 differs)` };
  const r = parseArtifact(kind, bytes.toString("utf8"));
  return r.ok ? r : { ok: false, reason: `${what}: ${r.problems.map(formatProblem).join("; ")}` };
}

/**
 * Turn one tool_events.jsonl line into a workflow event. The line must be sealed by the run's
 * endpoint (an agent appending by hand cannot make a seal), its role must own the tool and the
 * run's phase must still accept it; the artifact it vouches for is read from the snapshot the
 * endpoint took when it validated the call, never from the agent's file as it is now. Anything
 * else is a `tool_rejected` event naming why — never a half event.
 */
export function toolLineToEvent(raw: ToolEventLine, text: string, ctx: ApplyContext): LineOutcome {
  if (!raw.seal || raw.seq === undefined || !raw.agent || !raw.role || !checkSeal(ctx.key, text)) {
    return rejected(
      raw,
      "the line carries no valid agentmux seal: it was not written by this run's MCP endpoint (appended by hand or by another program), so it is ignored",
    );
  }
  const seq = raw.seq;
  if (seq <= ctx.appliedSeq) return { skip: true, seq };
  // no seq is taken from it: the orchestrator's own line with that seq is still to come
  if (ctx.own && !ctx.own(seq, text))
    return rejected(
      raw,
      `line seq ${seq} carries a valid seal but the running orchestrator did not write it: it was appended by a process that read the seal key, so it is ignored`,
    );
  if (!ROLE_TOOLS[raw.role].includes(raw.tool)) return refused(raw, seq, `${raw.agent} (${raw.role}) may not call ${raw.tool}`);
  if (!TOOL_PHASES[raw.tool].includes(ctx.phase))
    return refused(raw, seq, `${raw.tool} is not accepted in the ${ctx.phase} phase (the run moved on after the call was accepted)`);
  // the envelope was checked when the line was read (ToolEventLine): only the payload is left
  const payload = ToolPayloadSchema[raw.tool].safeParse(raw.payload);
  if (!payload.success) return refused(raw, seq, zodProblems(payload.error, raw, ["payload"]).map(formatProblem).join("; "));
  const line = { tool: raw.tool, timestamp: raw.timestamp, payload: payload.data } as TypedToolEventLine;
  const at = line.timestamp;
  switch (line.tool) {
    case "submit_pm_done":
      return { event: { type: "pm_done", at }, seq };
    case "submit_architecture":
      return { event: { type: "architecture_submitted", at, ...(line.payload.reviewers ? { reviewers: line.payload.reviewers } : {}) }, seq };
    case "submit_plan": {
      const r = readSnapshot(ctx.sessionDir, "plan", line.payload.snapshot, "plan.yaml");
      return r.ok ? { event: { type: "plan_submitted", at, plan: r.value }, seq } : refused(raw, seq, r.reason);
    }
    case "submit_review": {
      const { role } = line.payload;
      const r = readSnapshot(ctx.sessionDir, "review", line.payload.snapshot, `review_${role}.yaml`);
      return r.ok ? { event: { type: "review_submitted", at, role, review: r.value }, seq } : refused(raw, seq, r.reason);
    }
    case "submit_done": {
      const { subplan_index } = line.payload;
      const r = readSnapshot(ctx.sessionDir, "done", line.payload.snapshot, `done_${subplan_index}.json`);
      return r.ok ? { event: { type: "coder_done", at, subplan_index, artifact: r.value }, seq } : refused(raw, seq, r.reason);
    }
    case "submit_research_done":
      return { event: { type: "research_done", at, research_type: line.payload.type, topic: line.payload.topic }, seq };
    case "research_dispatch_code":
    case "research_dispatch_web": {
      const { research_type, topic, context, questions, scope_hints } = line.payload;
      return { event: { type: "research_dispatched", at, research_type, topic, context, questions, scope_hints }, seq };
    }
  }
}

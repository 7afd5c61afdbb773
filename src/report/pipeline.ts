import type { Phase } from "../schema/catalog.ts";
import type { State } from "../schema/state.ts";

/** What a run is called: its issue's title, its request's, its feature's, or its session's name. */
export const titleOf = (s: State) => s.issue_title ?? s.request_title ?? s.feature_name ?? s.session_name;

/** Stages shown for a run: optional ones (PM, designing, fixing) only when the run uses them. */
export function stagesOf(state: State): Phase[] {
  // a review round (GitHub Action) starts by fixing findings that came from outside
  if (state.history?.[0]?.phase === "fixing") return ["fixing", "reviewing", "completing", "done"];
  const seen = new Set<string>([state.phase, ...(state.history ?? []).map((h) => h.phase)]);
  const stages: Phase[] = [];
  if (state.product_manager || seen.has("product_management")) stages.push("product_management");
  stages.push("architecting", "planning");
  if (seen.has("designing")) stages.push("designing");
  stages.push("implementing", "reviewing");
  if (seen.has("fixing")) stages.push("fixing");
  stages.push("completing", "done");
  return stages;
}

/** The phase a failed run was in when it failed (last non-failed history entry). */
export function failedAt(state: State): Phase | undefined {
  const h = (state.history ?? []).filter((x) => x.phase !== "failed");
  return h.length ? h[h.length - 1]!.phase : undefined;
}

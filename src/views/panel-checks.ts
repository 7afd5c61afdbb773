import type { State } from "../schema/state.ts";
import type { CheckSnapshot } from "../schema/run-api/checks.ts";
import { checksSnapshot } from "../report/checks.ts";
import { checkLine } from "./check-rows.ts";
import { fit, seg, type Line } from "./line.ts";

/** The checks the approval panel shows: the latest round's (the code as it is now). */
export function panelChecks(state: State): CheckSnapshot[] {
  const s = checksSnapshot(state);
  return s.results.filter((c) => c.round === s.round);
}

/** The Checks box: a line per check, `›` on the one `c` opens next, what blocks said plainly. */
export function panelCheckLines(checks: readonly CheckSnapshot[], selected: number, width: number, now: number): Line[] {
  return checks.map((c, i) =>
    fit(
      [
        seg(i === selected ? "›" : " ", "bold"),
        ...checkLine(c, now, 1, false),
        ...(c.blocking ? [seg("  blocks the commit", "red")] : c.pre_existing ? [seg("  blocks nothing: it fails on the base too", "dim")] : []),
      ],
      width,
    ),
  );
}

/** The question `a` asks first when a required check still fails. */
export function approveOverChecks(checks: readonly CheckSnapshot[]): string | null {
  const failing = checks.filter((c) => c.blocking).map((c) => c.name);
  if (!failing.length) return null;
  return `The required check${failing.length === 1 ? "" : "s"} ${failing.join(", ")} still fail${failing.length === 1 ? "s" : ""}. Approve and commit anyway? y/N`;
}

/** The first check `c` opens: the first that blocks, else the first that failed, else the first. */
export function firstCheckToShow(checks: readonly CheckSnapshot[]): number {
  const blocking = checks.findIndex((c) => c.blocking);
  if (blocking >= 0) return blocking;
  const failed = checks.findIndex((c) => c.state !== "passed");
  return failed >= 0 ? failed : 0;
}

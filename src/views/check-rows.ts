import { checkDetail, checkMark } from "../report/checks.ts";
import type { CheckSnapshot } from "../schema/run-api/checks.ts";
import { seg, type Line, type Style } from "./line.ts";

const SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
const STYLE: Record<ReturnType<typeof checkMark>, Style> = { "✓": "green", "✗": "red", "!": "yellow", "…": "cyan", "·": "dim" };

/**
 * A check as one line: ` ✓ test 12 s` / ` ✗ lint 3 failures`, with its round when the run has had more than one.
 * `animate`: a running check's mark spins (a view redrawn several times a second); else it is the plain `…`.
 */
export function checkLine(c: CheckSnapshot, now: number, rounds: number, animate: boolean): Line {
  const m = checkMark(c);
  const mark = m === "…" && animate ? SPINNER[Math.floor(now / 100) % SPINNER.length]! : m;
  const line: Line = [seg(` ${mark} `, STYLE[m]), seg(c.name, "bold"), seg(` ${checkDetail(c, now)}`, m === "✓" || m === "·" || m === "…" ? "dim" : STYLE[m])];
  if (rounds > 1) line.push(seg(` · ${c.round === 0 ? "impl" : `fix ${c.round}`}`, "dim"));
  return line;
}

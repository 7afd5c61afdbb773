import type { CheckOutcome } from "../schema/check-runs.ts";
import type { State } from "../schema/state.ts";
import { blocks, roundOutcomes } from "./checks.ts";

const oneLine = (s: string, n = 300) => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/** `failed (exit 1)`, `timed out`, `could not run: …`. */
export function outcomeText(o: Pick<CheckOutcome, "status" | "exit_code" | "error">): string {
  if (o.status === "passed") return "passed";
  if (o.status === "timed_out") return "timed out (its process group was killed)";
  if (o.status === "error") return `could not run${o.error ? `: ${oneLine(o.error, 200)}` : ""}`;
  return `failed (exit ${o.exit_code ?? "signal"})`;
}

/** `src/a.ts:12: message`, or the message alone when the output named no place. */
export const findingLine = (f: { file?: string; line?: number; message: string }) =>
  `${f.file ? `${f.file}${f.line ? `:${f.line}` : ""}: ` : ""}${oneLine(f.message)}`;

/** A fence longer than any run of backticks in the text. */
const fence = (text: string) => "`".repeat(Math.max(3, ...[...text.matchAll(/`+/g)].map((m) => m[0].length + 1)));

/** One blocking check as the fixer reads it: command, status, its findings with their anchors, the failing lines. */
function checkSection(name: string, o: CheckOutcome): string[] {
  const out = ["", `## Check: ${name} — ${outcomeText(o)}`, "", `- Command: \`${o.command.replace(/`/g, "'")}\``, `- Output: ${o.log} (in the session folder)`];
  // findings the base commit shares are not the fixer's
  const mine = (o.findings ?? []).filter((f) => !f.pre_existing);
  if (mine.length) {
    out.push(`- Failures (${o.failures}${o.failures > mine.length ? `, the first ${mine.length} new ones` : ""}):`);
    for (const f of mine) out.push(`  - ${findingLine(f)}`);
  }
  if (o.tail?.length) {
    const text = o.tail.join("\n");
    const f = fence(text);
    out.push("", "Failing output:", "", `${f}text`, text, f);
  }
  return out;
}

/**
 * The part of 07_review/fix_request.md the round's blocking checks add: each one with its
 * command, exit status, findings (`file:line`) and failing lines. Checks that failed the same
 * way on the base are named as pre-existing and are not the fixer's to fix.
 */
export function checkFixRequest(state: State, round: number): string {
  const outcomes = [...roundOutcomes(state, round)];
  const blocking = outcomes.filter(([, o]) => blocks(o));
  const preExisting = outcomes.filter(([, o]) => o.status !== "passed" && o.pre_existing);
  if (!blocking.length && !preExisting.length) return "";
  const out: string[] = [];
  if (blocking.length) {
    out.push(
      "",
      "# Failing checks",
      "",
      "agentmux ran the project's own checks on the change and these required ones fail. Make each of them pass: the round is over when they do.",
    );
    for (const [name, o] of blocking) out.push(...checkSection(name, o));
  }
  if (preExisting.length) {
    out.push("", "# Pre-existing check failures (not yours to fix)", "");
    for (const [name, o] of preExisting) out.push(`- ${name}: ${outcomeText(o)} on the base commit too; leave it unless a finding above needs it.`);
  }
  return out.join("\n") + "\n";
}

/** The one-line notice a reviewer still reading gets when a required check fails. */
export const checkNotice = (name: string, o: CheckOutcome) =>
  `agentmux ran the check ${name} (${o.command}): ${outcomeText(o)}${o.failures ? `, ${o.failures} failure(s)` : ""}. Its output is ${o.log} in the session folder; the fixer gets it either way.`;

/** The checks part of summary.md when the loop cap ended the review. */
export function loopCapChecks(state: State, round: number): string {
  const outcomes = [...roundOutcomes(state, round)];
  if (!outcomes.length) return "";
  return (
    [
      "",
      "## Checks",
      "",
      ...outcomes.map(([n, o]) => `- ${n}: ${outcomeText(o)}${o.pre_existing ? " — pre-existing on the base" : o.required ? "" : " — advisory"}`),
    ].join("\n") + "\n"
  );
}

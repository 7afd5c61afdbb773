import { join } from "node:path";
import { State } from "../schema/state.ts";
import { inspectSessionFile, SessionFileInvalid } from "../session/file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { F } from "../protocol/paths.ts";
import { lineCommentsMarkdown } from "../schema/artifacts/line-comments-md.ts";
import type { CheckOutcome } from "../schema/check-runs.ts";
import { workFileLines } from "./session-context.ts";

/** state.json as far as the check sections read it. */
const CHECK_STATUS = { ...SESSION_FILES.state, schema: State.pick({ checks: true, review_iteration: true }).partial() };

function outcomes(sessionDir: string, round: "current" | "previous"): Map<string, CheckOutcome> {
  const state = inspectSessionFile(sessionDir, CHECK_STATUS);
  if (!state.ok && !state.missing) throw new SessionFileInvalid({ path: join(sessionDir, F.state), name: F.state, problems: state.problems });
  const s = state.ok ? state.value : {};
  const want = (s.review_iteration ?? 0) - (round === "previous" ? 1 : 0);
  const out = new Map<string, CheckOutcome>();
  for (const r of s.checks ?? []) if (r.round === want) for (const [n, o] of Object.entries(r.results)) out.set(n, o);
  return out;
}

const status = (o: CheckOutcome) =>
  o.status === "passed"
    ? "passed"
    : `${o.status === "failed" ? `failed (exit ${o.exit_code ?? "signal"})` : o.status.replace("_", " ")}${o.failures ? `, ${o.failures} failure(s)` : ""}${o.pre_existing ? " — fails on the base commit too (pre-existing)" : o.required ? "" : " — advisory"}`;

/**
 * For reviewers: what agentmux's own run of the project's checks said about this round so far
 * (evidence, not an agent's word). Checks that are still running report to the fixer either way.
 */
export function checkResultsSection(sessionDir: string): string {
  const now = outcomes(sessionDir, "current");
  if (!now.size)
    return "No results yet: agentmux runs the project's checks while you review, and a failing required check goes to the fixer either way. Do not repeat what a check reports.";
  return [...now].map(([n, o]) => `- \`${n}\` (\`${o.command.replace(/`/g, "'")}\`): ${status(o)} — output in \`${o.log}\``).join("\n");
}

/**
 * For the fixer: each failing required check of the round it fixes, its findings anchored in
 * the code as it is now (like line comments), and its failing lines.
 */
export function checkFindingsSection(sessionDir: string, workDir: string): string {
  const failing = [...outcomes(sessionDir, "previous")].filter(([, o]) => o.required && o.status !== "passed" && !o.pre_existing);
  if (!failing.length) return "No check fails in this round.";
  const out: string[] = [];
  for (const [name, o] of failing) {
    out.push(
      `### Check \`${name}\`: ${status(o)}`,
      "",
      `Command: \`${o.command.replace(/`/g, "'")}\` (run it yourself to see it pass). Full output: \`${o.log}\` in the session folder.`,
      "",
    );
    const anchored = (o.findings ?? [])
      .filter((f) => f.file && f.line)
      .map((f) => ({ file: f.file!, start_line: f.line!, end_line: f.line!, by: `check ${name}`, note: "must pass", body: f.message }));
    if (anchored.length) out.push(lineCommentsMarkdown(anchored, (file) => workFileLines(workDir, file)).replace(/^## Line comments\n\n/, ""), "");
    const loose = (o.findings ?? []).filter((f) => !f.file || !f.line);
    for (const f of loose) out.push(`- ${f.message.replace(/\s+/g, " ").trim()}`);
    if (loose.length) out.push("");
  }
  return out.join("\n").trimEnd();
}

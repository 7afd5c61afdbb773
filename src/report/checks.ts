import type { CheckOutcome } from "../schema/check-runs.ts";
import type { State } from "../schema/state.ts";
import type { CheckSnapshot, ChecksSnapshot } from "../schema/run-api/checks.ts";

/** A failing check that is required and did not fail that way on the base: it blocks the commit. */
const blocks = (o: CheckOutcome | undefined) => !!o && o.required && o.status !== "passed" && o.pre_existing !== true;

/** Every check of every round (a later batch of the same check in the same round replaces it), in the order they first ran. */
export function checksSnapshot(state: State): ChecksSnapshot {
  const rows = new Map<string, CheckSnapshot>();
  for (const r of state.checks ?? []) {
    for (const name of r.names) {
      const o = r.results[name];
      // a finished check's start leaves `running`; its outcome keeps when it finished and how long it took
      const since = r.running?.[name] ?? (o ? new Date(Date.parse(o.finished_at) - o.duration_ms).toISOString() : null);
      rows.set(`${r.round}\u0000${name}`, {
        name,
        round: r.round,
        run: r.id,
        state: o ? o.status : since ? "running" : "queued",
        command: o?.command ?? null,
        required: o?.required ?? null,
        pre_existing: o?.pre_existing ?? null,
        blocking: blocks(o),
        exit_code: o?.exit_code ?? null,
        duration_ms: o?.duration_ms ?? null,
        failures: o ? o.failures : null,
        findings: o?.findings ?? [],
        tests: o?.tests ?? null,
        log: o?.log ?? null,
        file: o?.file ?? null,
        started_at: since,
        finished_at: o?.finished_at ?? null,
      });
    }
  }
  const results = [...rows.values()];
  const round = results.length ? Math.max(...results.map((r) => r.round)) : null;
  return { round, blocking: results.filter((r) => r.round === round && r.blocking).map((r) => r.name), results };
}

const secs = (msv: number) => (msv < 10_000 ? `${(msv / 1000).toFixed(1)} s` : `${Math.round(msv / 1000)} s`);
const plural = (n: number, w: string) => `${n} ${w}${n === 1 ? "" : "s"}`;

/** The words after a check's name: `12 s`, `3 failures`, `timed out after 30 s`, `running 4 s`, plus `pre-existing` / `advisory`. */
export function checkDetail(c: CheckSnapshot, now: number): string {
  if (c.state === "queued") return "queued";
  if (c.state === "running") {
    const t = c.started_at ? Date.parse(c.started_at) : NaN;
    return Number.isNaN(t) ? "running" : `running ${secs(Math.max(0, now - t))}`;
  }
  if (c.state === "passed") return secs(c.duration_ms ?? 0);
  const what =
    c.state === "timed_out"
      ? `timed out after ${secs(c.duration_ms ?? 0)}`
      : c.state === "error"
        ? "could not run"
        : c.failures
          ? plural(c.failures, "failure")
          : `exit ${c.exit_code ?? "signal"}`;
  return `${what}${c.pre_existing ? " · pre-existing" : c.required === false ? " · advisory" : ""}`;
}

export type CheckMark = "✓" | "✗" | "!" | "…" | "·";

/**
 * The one rule for a check's mark, everywhere a check is shown (monitor, status, the panel,
 * `agentmux checks`, progress lines, the commit message, the Action's comment):
 * ✓ passed, ✗ blocks, ! fails without blocking (pre-existing, advisory), … running, · queued.
 */
export function checkMark(c: Pick<CheckSnapshot, "state" | "blocking">): CheckMark {
  if (c.state === "queued") return "·";
  if (c.state === "running") return "…";
  if (c.state === "passed") return "✓";
  return c.blocking ? "✗" : "!";
}

/** The latest round's checks as a Markdown table (the pull request body). */
export function checksTable(state: State): string {
  const s = checksSnapshot(state);
  const latest = s.results.filter((r) => r.round === s.round);
  if (!latest.length) return "";
  const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/`/g, "'").replace(/\s+/g, " ");
  const out = ["| Check | Result | Time | Command |", "|---|---|---|---|"];
  for (const c of latest) {
    const result = c.state === "passed" ? "passed" : c.state === "queued" || c.state === "running" ? c.state : checkDetail(c, 0);
    out.push(`| ${cell(c.name)} | ${checkMark(c)} ${cell(result)} | ${c.duration_ms === null ? "" : secs(c.duration_ms)} | \`${cell(c.command ?? "")}\` |`);
  }
  return out.join("\n");
}

/** One plain line per check of the latest round (the commit message): `✓ test: passed (12 s)`. */
export function checkSummaryLines(state: State): string[] {
  const s = checksSnapshot(state);
  return s.results
    .filter((r) => r.round === s.round)
    .map((c) => `${checkMark(c)} ${c.name}: ${c.state === "passed" ? `passed (${secs(c.duration_ms ?? 0)})` : checkDetail(c, 0)}`);
}

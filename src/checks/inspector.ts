import { checkBlocks, type CheckKind, type CheckResult } from "../schema/checks.ts";
import { InspectorCompletion, type QualityVerdict } from "../schema/artifacts/inspector.ts";

export type InspectorInput = {
  /** the seed's story key: the run's feature name */
  storyKey: string;
  /** the files the run changed that the checks ran over */
  files: readonly string[];
  /** ISO time of the record */
  at: string;
};

/** The latest result of each check (highest round; the later one in the list on a tie). */
export function latestResults(results: readonly CheckResult[]): CheckResult[] {
  const byName = new Map<string, CheckResult>();
  for (const r of results) {
    const seen = byName.get(r.name);
    if (!seen || r.round >= seen.round) byName.set(r.name, r);
  }
  return [...byName.values()];
}

function verdict(results: readonly CheckResult[], kind: CheckKind): QualityVerdict {
  const of = results.filter((r) => r.kind === kind);
  if (of.length === 0) return "NOT_RUN";
  return of.every((r) => r.status === "passed") ? "PASS" : "FAIL";
}

function testCounts(results: readonly CheckResult[]): { passing: number; failing: number; total: number } {
  let passing = 0;
  let failing = 0;
  for (const r of results.filter((x) => x.kind === "test")) {
    if (r.tests) {
      passing += r.tests.passing;
      failing += r.tests.failing;
    } else if (r.status === "passed") passing += 1;
    else failing += 1;
  }
  return { passing, failing, total: passing + failing };
}

/**
 * The seed's Inspector completion built from what agentmux ran: quality checks say what the
 * checks of that kind did (FAIL even when the base fails the same way), `status` says whether
 * anything blocks (a pre-existing failure does not).
 */
export function buildInspectorCompletion(results: readonly CheckResult[], input: InspectorInput): InspectorCompletion {
  const latest = latestResults(results);
  return InspectorCompletion.parse({
    story_key: input.storyKey,
    agent: "inspector",
    status: latest.some(checkBlocks) ? "FAIL" : "PASS",
    quality_checks: { type_check: verdict(latest, "type_check"), lint: verdict(latest, "lint"), build: verdict(latest, "build") },
    tests: testCounts(latest),
    files_verified: [...input.files],
    timestamp: input.at,
    checks: latest.map((r) => ({
      name: r.name,
      kind: r.kind,
      status: r.status,
      required: r.required,
      ...(r.pre_existing === undefined ? {} : { pre_existing: r.pre_existing }),
      round: r.round,
    })),
  });
}

import { describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { code, localImports, sources, SRC } from "./imports.ts";

/**
 * One run API (DESIGN rule 13): what shows or exports a run reads report/'s snapshot, events and
 * result; none of them walks state.json's history, reviews, usage or agents again on its own.
 */
const CONSUMERS = [
  "launcher/progress.ts",
  "launcher/follow.ts",
  "launcher/github",
  "cli/status.ts",
  "views/status.ts",
  "views/progress-comment.ts",
  "web",
  "views/monitor.ts",
  "views/pipeline.ts",
  "views/check-rows.ts",
  "tui/monitor-app.ts",
  "views/sessions.ts",
];

/** What only report/ derives from a state: the timeline, reviews and their round, usage sums, agent rows, stages. */
const DERIVATIONS: [RegExp, string][] = [
  [/\.history\b/, "walks state.history (the snapshot's timeline and stages)"],
  [/\breview_results\b/, "reads state.review_results (the snapshot's reviews)"],
  [/\b(usageTotal|usageByAgent)\(/, "sums usage (the snapshot's usage)"],
  [/\bagentRows\(/, "lists agents (the snapshot's agents)"],
  [/\b(stagesOf|failedAt)\(/, "works out the stages (the snapshot's stages)"],
  [/\breviewRound\(/, "counts the review round (the snapshot's review_round)"],
  [/\bchecksSnapshot\(/, "lists the checks (the snapshot's checks)"],
  [/\b(readSessionData|readCreatedFiles)\(/, "reads the session folder beside the run API (report/read.ts reads it)"],
  [
    /\.(research_tasks|web_research_tasks|implementation_group_\w+|implementation_active_plan_ids|implementation_completed_group_ids)\b/,
    "reads state.json's research or groups (the snapshot's research and groups)",
  ],
];

export function rederivations(files: { path: string; text: string }[]): string[] {
  const out: string[] = [];
  for (const f of files) {
    const lines = code(f.text).split("\n");
    lines.forEach((line, i) => {
      for (const [re, what] of DERIVATIONS) if (re.test(line)) out.push(`${f.path}:${i + 1} ${what}`);
    });
  }
  return out;
}

const consumerFiles = () =>
  CONSUMERS.flatMap((c) => {
    const p = join(SRC, c);
    return statSync(p).isDirectory() ? sources(p) : [p];
  });

describe("one run API: its consumers derive nothing themselves", () => {
  test("no consumer walks the state for what the run API derives", () => {
    expect(rederivations(consumerFiles().map((p) => ({ path: relative(SRC, p), text: readFileSync(p, "utf8") })))).toEqual([]);
  });

  test("the status command, the CI printer and the progress comment import report/", () => {
    for (const c of ["cli/status.ts", "launcher/progress.ts", "launcher/follow.ts", "views/status.ts", "views/progress-comment.ts"]) {
      expect({ file: c, report: localImports(join(SRC, c)).some((p) => relative(SRC, p).startsWith("report/")) }).toEqual({ file: c, report: true });
    }
  });

  test("the monitor draws a snapshot: its view takes a RunSnapshot and its app reads the session through report/", () => {
    const view = readFileSync(join(SRC, "views/monitor.ts"), "utf8");
    expect(view).toMatch(/export type MonitorInput = \{ run: RunSnapshot;/);
    expect(
      localImports(join(SRC, "views/monitor.ts"))
        .map((p) => relative(SRC, p))
        .filter((p) => p.startsWith("session/") || p === "schema/state.ts"),
    ).toEqual([]);
    const app = localImports(join(SRC, "tui/monitor-app.ts")).map((p) => relative(SRC, p));
    expect(app).toContain("report/read.ts");
    expect(app).toContain("report/snapshot.ts");
  });

  test("the monitor and the sessions list read no field of state.json themselves: only to hand it to snapshot()", () => {
    const own = ["views/monitor.ts", "views/pipeline.ts", "views/sessions.ts", "tui/monitor-app.ts", "tui/home-app.ts"].flatMap((f) =>
      code(readFileSync(join(SRC, f), "utf8"))
        .split("\n")
        .flatMap((line, i) => (/\bstate\??\.(?!json\b|ts\b)\w/.test(line) && !/^\s*import\b|\bsnapshot\(/.test(line) ? [`${f}:${i + 1}`] : [])),
    );
    expect(own).toEqual([]);
  });

  test("the check sees a consumer that walks the history itself", () => {
    const text = `// state.history in a comment is fine\nconst spent = (s) => s.history.map((h) => h.at);\nconst u = usageTotal(s);\nconst asks = Object.values(state.agents ?? {});\nconst t = state.research_tasks;`;
    expect(rederivations([{ path: "launcher/x.ts", text }])).toEqual([
      "launcher/x.ts:2 walks state.history (the snapshot's timeline and stages)",
      "launcher/x.ts:3 sums usage (the snapshot's usage)",
      "launcher/x.ts:5 reads state.json's research or groups (the snapshot's research and groups)",
    ]);
  });
});

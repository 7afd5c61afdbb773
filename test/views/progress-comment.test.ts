import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { State } from "../../src/schema/state.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";
import { inert, progressComment, PROGRESS_MARKER } from "../../src/views/progress-comment.ts";
import { at, stateIn } from "../tui/fixtures.ts";

const T0 = Date.parse(at(0));

describe("progress comment", () => {
  test("running: phase checklist with the current phase, agents with provider and state, review verdicts, whole minutes", () => {
    const s = stateIn("reviewing", {
      feature_branch: "feature/rate-limit",
      agents: {
        coder: { role: "coder", label: "[coder] plan 1", status: "done", provider: "claude", model: "sonnet", since: at(5) },
        reviewer_logic: { role: "reviewer_logic", label: "[reviewer] logic", status: "stuck", provider: "codex", since: at(6), note: "prompt | not accepted" },
      },
      review_results: { reviewer_quality: { verdict: "fail", summary: "Needs tests\nfor @everyone" } },
    });
    const md = progressComment({
      subject: "issue #42",
      state: s,
      startedAt: T0,
      now: T0 + 7 * 60_000 + 5_000,
      runUrl: "https://github.com/acme/app/actions/runs/1",
    });
    expect(md.split("\n")[0]).toBe(PROGRESS_MARKER);
    expect(md).toContain("### agentmux · issue #42 — running (7 min)");
    expect(md).toContain("[workflow run](https://github.com/acme/app/actions/runs/1) · branch `feature/rate-limit`");
    expect(md).toContain("- [x] architecting · ");
    expect(md).toMatch(/- \[ \] \*\*reviewing\*\* ← now, /);
    expect(md).toContain("- [ ] completing");
    expect(md).toContain("| \\[coder\\] plan 1 | claude · sonnet | done |");
    expect(md).toContain("| \\[reviewer\\] logic | codex | ⚠️ stuck: prompt \\| not accepted |");
    expect(md).toContain("- ❌ reviewer quality: fail, Needs tests for @\u200beveryone");
  });

  test("done: the pull request, branch and commit; failed: where, why, and how to retry", () => {
    const done = progressComment({
      subject: "issue #42",
      state: stateIn("done"),
      startedAt: T0,
      now: T0 + 65_000,
      artifact: "agentmux-issue-42",
      end: { kind: "success", prUrl: "https://github.com/acme/app/pull/7", branch: "feature/x", commit: "abc1234" },
    });
    expect(done).toContain("— done (1m 5s)");
    expect(done).toContain(
      "✅ **Done** in 1m 5s: pull request https://github.com/acme/app/pull/7 (branch `feature/x`, commit `abc1234`). The session folder (logs, prompts, reviews) is the workflow artifact `agentmux-issue-42`.",
    );
    const failed = stateIn("failed", { interruption_cause: "the watchdog stopped the run after 30 min" });
    const md = progressComment({
      subject: "issue #42",
      state: failed,
      startedAt: T0,
      now: T0 + 1000,
      end: { kind: "failed", cause: failed.interruption_cause!, retry: "re-run this workflow job" },
    });
    expect(md).toContain("❌ **Failed** in implementing after 1s: the watchdog stopped the run after 30 min");
    expect(md).toContain("- [ ] ❌ **implementing** (failed here)");
    expect(md).toContain("To retry: re-run this workflow job.");
  });

  test("before the session exists, and a review round's stages", () => {
    expect(progressComment({ subject: "issue #1", state: null, startedAt: T0, now: T0 })).toContain("— starting (under a minute)\n\nSetting up the runner…");
    const round = { ...stateIn("fixing"), history: [{ phase: "fixing" as const, event: "feature_created" as const, at: at(0) }] };
    const md = progressComment({ subject: "review of pull request #7", state: round, startedAt: T0, now: T0 });
    expect(md).toContain("- [ ] **fixing** ← now");
    expect(md).not.toContain("architecting");
  });

  test("inert: no control characters, no live Markdown, mentions or HTML; cut to length", () => {
    expect(inert("a\x1b[2J\nb | c <!-- x --> @all `code` *b* [l](u)")).toBe("a b \\| c \\<!-- x --\\> @\u200ball \\`code\\` \\*b\\* \\[l\\](u)");
    expect(inert("x".repeat(300), 10)).toBe("xxxxxxxxx…");
  });
});

describe("docs/github-action.md", () => {
  const doc = readFileSync(join(REPO_ROOT, "docs", "github-action.md"), "utf8");
  /** The first Markdown block quote after `marker`, without its "> ". */
  const quoteAfter = (marker: string) => {
    const lines = doc.slice(doc.indexOf(marker)).split("\n");
    const start = lines.findIndex((l) => l.startsWith(">"));
    const end = lines.findIndex((l, i) => i > start && !l.startsWith(">"));
    return lines
      .slice(start, end)
      .map((l) => l.replace(/^> ?/, ""))
      .join("\n");
  };

  test("the rendered example of a finished run is what the view draws", () => {
    const t = (s: number) => new Date(T0 + s * 1000).toISOString();
    const agent = (role: string, label: string, provider: string, model?: string) => ({
      role,
      label,
      status: "done",
      provider,
      ...(model ? { model } : {}),
      since: t(0),
    });
    const s = {
      ...stateIn("done"),
      feature_branch: "feature/issue-42-add-a-farewell-helper-4242",
      history: [
        { phase: "architecting", event: "feature_created", at: t(0) },
        { phase: "planning", event: "architecture_written", at: t(130) },
        { phase: "implementing", event: "plan_written", at: t(231) },
        { phase: "reviewing", event: "implementation_completed", at: t(594) },
        { phase: "completing", event: "review_passed", at: t(826) },
        { phase: "done", event: "approval_received", at: t(852) },
      ],
      agents: {
        architect: agent("architect", "[architect] architecture", "claude", "claude-sonnet-4"),
        planner: agent("planner", "[planner] planning", "claude", "claude-sonnet-4"),
        coder: agent("coder", "[coder] Core farewell module", "codex"),
        reviewer_logic: agent("reviewer_logic", "[reviewer] logic · round 1", "claude", "claude-sonnet-4"),
      },
      review_results: { reviewer_logic: { verdict: "pass", summary: "checked src/farewell.js, test/farewell.test.js: the change does what was asked." } },
    } as State;
    const md = progressComment({
      subject: "issue #42",
      state: s,
      startedAt: T0,
      now: T0 + 852_000,
      runUrl: "https://github.com/acme/app/actions/runs/4242",
      artifact: "agentmux-issue-42",
      end: { kind: "success", prUrl: "https://github.com/acme/app/pull/7", branch: s.feature_branch, commit: "924c3f7" },
    });
    expect(quoteAfter("A run that finished:")).toBe(md.replace(PROGRESS_MARKER + "\n", "").trimEnd());
  });

  test("the rendered end of a failed run is what the view draws", () => {
    const failed = stateIn("failed", { interruption_cause: "the watchdog stopped the run after 30 min" });
    const md = progressComment({
      subject: "issue #42",
      state: failed,
      startedAt: T0,
      now: T0 + 1_864_000,
      artifact: "agentmux-issue-42",
      end: { kind: "failed", cause: failed.interruption_cause!, retry: "re-run this workflow job, or comment `/agentmux` on this issue" },
    });
    const quoted = quoteAfter("how to\nretry:");
    expect(quoted).toStartWith("❌ **Failed** in implementing after 31m 4s:");
    expect(quoted).toContain("To retry: ");
    expect(md.trimEnd().endsWith(quoted)).toBe(true);
  });
});

import { describe, expect, test } from "bun:test";
import { PHASES } from "../../src/schema/catalog.ts";
import { colorEnabled, plainWidth, toAnsi, toPlain, toTags, type Line } from "../../src/views/line.ts";
import { monitorView } from "../../src/views/monitor.ts";
import { monitorInput } from "../helpers/monitor-input.ts";
import { statusJson, statusView } from "../../src/views/status.ts";
import { sessionsTable } from "../../src/views/sessions.ts";
import { goodbye } from "../../src/views/goodbye.ts";
import { resumeCommandOf } from "../../src/launcher/outcome.ts";
import { REMOVED_BY_CLEAN } from "../../src/schema/cancel-request.ts";
import type { State } from "../../src/schema/state.ts";
import { markdownLines } from "../../src/views/markdown.ts";
import { buildApproval, changesContent, fileLines } from "../../src/views/panel.ts";
import { at, stateIn } from "../tui/fixtures.ts";

const NOW = Date.parse(at(20));
const plain = (lines: Line[]) => lines.map(toPlain);
const mon = (state: ReturnType<typeof stateIn>, width = 40, height = 40, extra: object = {}) =>
  monitorView(monitorInput({ dir: "/p/.agentmux/.sessions/s", state, created: [], now: NOW, ...extra }), { width, height });

const parallel = stateIn("implementing", {
  implementation_group_total: 3,
  implementation_group_index: 2,
  implementation_group_mode: "parallel",
  implementation_active_plan_ids: ["2", "3"],
  implementation_completed_group_ids: ["core"],
  agents: {
    "coder:2": { role: "coder", label: "coder 2", status: "working", provider: "claude", model: "claude-sonnet-4", since: at(9) },
    "coder:3": { role: "coder", label: "coder 3", status: "stuck", provider: "codex", since: at(9), note: "prompt not accepted" },
    architect: { role: "architect", label: "architect", status: "done", provider: "claude", since: at(0) },
  },
});

/** A run in architecting whose architect asks the user `text`. */
const architectAsks = (text: string, label = "[architect] architecture") =>
  stateIn("architecting", {
    agents: {
      architect: { role: "architect", label, status: "needs_input", provider: "claude", since: at(1), question: { kind: "question", text, at: at(1) } },
    },
  });

describe("monitor view", () => {
  // the demo's request at 80x24 (a 30-column monitor) showed "function greet(name) that" and stopped there
  test("a request longer than the header's two lines ends with … instead of stopping mid-sentence", () => {
    const feature = "Add a greeting module: a function greet(name) that returns a friendly greeting, with a unit test.";
    const s = stateIn("architecting", { request_title: feature });
    const top = plain(mon(s, 30, 24)).slice(0, 2);
    expect(top[0]).toBe("AM Add a greeting module: a");
    expect(top[1]).toMatch(/^   function greet\(name\) that…$/);
    expect(plain(mon(s, 120, 24))[0]).toBe(`AM ${feature}`);
  });
  // at 80x24 (a 30-column monitor) the key bar has room for "? help · Ctrl-b d detach" only, and
  // the agent's row for "sim · asks: Should the gr…": nothing said how to answer
  test("an agent that asks: the top says who asks and how to answer, at 30 columns too", () => {
    const s = stateIn("architecting", {
      agents: {
        architect: {
          role: "architect",
          label: "[architect] architecture",
          status: "needs_input",
          provider: "sim",
          since: at(1),
          question: { kind: "question", text: "English only?", at: at(1) },
        },
      },
    });
    for (const w of [30, 60]) {
      const text = plain(mon(s, w, 24))
        .join("\n")
        .replace(/\s+/g, " ");
      expect(text).toContain("[architect] architecture asks you");
      expect(text).toContain("Enter: answer in its pane");
    }
    const two = stateIn("implementing", {
      agents: {
        "coder:1": { role: "coder", label: "[coder] one", status: "working", provider: "sim", since: at(1) },
        "coder:2": {
          role: "coder",
          label: "[coder] two",
          status: "needs_input",
          provider: "sim",
          since: at(1),
          question: { kind: "permission", text: "run npm test?", at: at(1) },
        },
      },
    });
    const text = plain(mon(two, 30, 24, { selected: 0 }))
      .join("\n")
      .replace(/\s+/g, " ");
    expect(text).toContain("[coder] two asks you");
    expect(text).toContain("↓ to it, Enter: answer in its pane");
  });

  // the row showed "asks: Should the gr…" at 30 columns; a dialog's text is its question, then what it is about and its choices (#27.3)
  test("an agent that asks: the top shows the question itself, wrapped, without the choices after it", () => {
    const text = "Should the greeting say Hello or Hi? · ☐ Greeting · ❯ 1. Hello · 2. Hi · 3. Type something.";
    const s = architectAsks(text);
    for (const w of [30, 80]) {
      const lines = plain(mon(s, w, 24));
      const from = lines.findIndex((l) => l.includes("asks you"));
      const asked = lines
        .slice(
          from + 1,
          lines.findIndex((l) => l.includes("Enter: answer in its pane")),
        )
        .join(" ")
        .replace(/\s+/g, " ")
        .trim();
      expect({ w, asked }).toEqual({ w, asked: "Should the greeting say Hello or Hi?" });
    }
    const long = architectAsks("Which of these ".repeat(12) + "do you want?", "a");
    const lines = plain(mon(long, 30, 24));
    const from = lines.findIndex((l) => l.includes("asks you"));
    expect(
      lines
        .slice(from + 1, from + 4)
        .at(-1)!
        .trimEnd(),
    ).toEndWith("…");
    expect(lines[from + 4]).toContain("Enter: answer in its pane");
  });

  for (const phase of PHASES) {
    test(`${phase}: current stage marked, exact height, fits 40/80/200 columns`, () => {
      const state = stateIn(phase);
      for (const width of [40, 80, 200]) {
        const lines = mon(state, width, 24);
        expect(lines.length).toBe(24);
        for (const l of lines) expect(plainWidth(l)).toBeLessThanOrEqual(width);
        const text = plain(lines).join("\n");
        if (phase === "failed") expect(text).toContain("✗ failed in");
        else if (phase === "done") expect(text).toMatch(/✓ done/);
        else expect(text).toContain(`▶ ${phase.replace(/_/g, " ")}`);
      }
    });
  }

  test("in the 30 columns the monitor gets in an 80-column terminal, an agent that waits for the user shows its status and the start of its question", () => {
    const asking = architectAsks("Which database should the cache use?");
    const text = plain(mon(asking, 30, 24)).join("\n");
    expect(text).toContain("[ NEEDS INPUT ]");
    expect(text).toContain("asks: Which data");
    // a wide monitor keeps the whole label before the status
    expect(plain(mon(asking, 80, 24)).join("\n")).toContain("? [architect] architecture [ NEEDS INPUT ]");
  });

  test("stages before the current one are done, after it pending", () => {
    const text = plain(mon(stateIn("reviewing"))).join("\n");
    expect(text).toContain("✓ architecting");
    expect(text).toContain("✓ implementing");
    expect(text).toContain("▶ reviewing");
    expect(text).toContain("· completing");
    expect(text).toContain("› code done");
  });

  test("parallel groups, plans and agents with status, provider/model; finished agents hidden", () => {
    const text = plain(mon(parallel, 40, 40, { selected: 1 })).join("\n");
    expect(text).toContain("› groups: 1/3 done");
    expect(text).toContain("› ✓ core");
    expect(text).toContain("› ▶ g2 parallel · plan 2, plan 3");
    expect(text).toContain("› · g3");
    expect(text).toContain("● coder 2 [ WORKING ]");
    expect(text).toContain("claude/sonnet-4");
    expect(text).toContain("›! coder 3 [ STUCK ]");
    expect(text).toContain("prompt not accepted");
    expect(text).not.toContain("architect [");
  });

  test("runtime activity refines working/idle", () => {
    const text = plain(mon(parallel, 40, 40, { runtime: { tmux_session: "x", panes: { "coder:2": "%4" }, activity: { "coder:2": "idle" } } })).join("\n");
    expect(text).toContain("○ coder 2 [ IDLE ]");
  });

  test("failed run shows the cause; review iteration shown", () => {
    const text = plain(mon(stateIn("failed", { interruption_cause: "coder 2 pane exited" }), 80)).join("\n");
    expect(text).toContain("› run failed");
    expect(text).toContain("› cause: coder 2 pane exited");
    expect(plain(mon(stateIn("fixing", { review_iteration: 2 }))).join("\n")).toContain("› fix round 2");
  });

  test("log merges transitions and created files with file:// links; clock from created_at", () => {
    const created = [
      { at: Date.parse(at(4)), path: "04_planning/plan.yaml" },
      { at: Date.parse(at(4)), path: "04_planning/planner_prompt.md" },
    ];
    const lines = mon(stateIn("planning"), 80, 30, { created });
    const text = plain(lines).join("\n");
    expect(text).toContain("+ 04_planning/plan.yaml");
    expect(text).not.toContain("planner_prompt.md");
    expect(text).toContain("> planning (architecture ready)");
    expect(text.indexOf("> planning")).toBeLessThan(text.indexOf("+ 04_planning/plan.yaml"));
    expect(
      toAnsi(
        lines.find((l) => toPlain(l).includes("plan.yaml"))!,
        { color: false, links: true },
      ),
    ).toContain("\x1b]8;;file:///p/.agentmux/.sessions/s/04_planning/plan.yaml\x07");
    expect(text).toContain("◷ 0:20:00 │ agentmux-rate-limit");
  });

  test("research tasks counted", () => {
    const text = plain(mon(stateIn("architecting", { research_tasks: { auth: "done" }, web_research_tasks: { limits: "dispatched" } }))).join("\n");
    expect(text).toContain("RESEARCH 1/2");
    expect(text).toContain("✓ c· auth");
    expect(text).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] w· limits/);
  });

  test("NO_COLOR: no tags and no ANSI; color: tags present", () => {
    const lines = mon(parallel);
    expect(lines.map((l) => toTags(l, false)).join("")).not.toMatch(/\{(green|cyan|bold)/);
    expect(lines.map((l) => toAnsi(l, { color: false })).join("")).not.toContain("\x1b[");
    expect(lines.map((l) => toTags(l, true)).join("")).toContain("{green-fg}");
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
  });
});

describe("status view", () => {
  const input = (state: ReturnType<typeof stateIn>, live = false) => ({ dir: "/d", id: "s1", state, created: [], live, toolEvents: 7, now: NOW });

  test("timeline with durations, agents, groups, reviews", () => {
    const s = stateIn("reviewing", {
      ...parallel,
      phase: "reviewing",
      review_iteration: 1,
      review_results: { reviewer_logic: { verdict: "fail", summary: "missing test" } },
    });
    const text = plain(statusView(input(s, true), 100)).join("\n");
    expect(text).toMatch(/architecting\s+starting up\s+3m 0s/);
    expect(text).toContain("Reviews (round 2)");
    expect(text).toMatch(/reviewer_logic\s+fail\s+missing test/);
    expect(text).toMatch(/coder 3\s+stuck/);
    expect(text).toContain("Tool calls 7");
    expect(text).not.toContain("Resume"); // live: nothing to resume
  });

  test("a stopped session: its agents show as stopped, no pane and no attach command; resume instead", () => {
    const s = stateIn("implementing", { ...parallel, phase: "implementing" });
    const runtime = { tmux_session: "agentmux-s1", tmux_socket: "agentmux", panes: { "coder:2": "%5" } };
    const text = plain(statusView({ ...input(s), runtime }, 100)).join("\n");
    expect(text).toMatch(/coder 2\s+stopped/);
    expect(text).toMatch(/coder 3\s+stopped/);
    expect(text).not.toContain("working");
    expect(text).not.toContain("pane %5");
    expect(text).not.toContain("attach");
    expect(text).toContain("Resume     agentmux resume s1");
    expect(statusJson({ ...input(s), runtime }).agents.every((a) => a.status === "stopped" && a.pane === null)).toBe(true);
  });

  test("#31: a run waiting for approval says so and names the command that answers, at 80 columns", () => {
    const s = stateIn("completing", { awaiting_decision: true });
    const live = plain(statusView(input(s, true), 80));
    expect(live.join("\n")).toMatch(/Phase\s+completing\nWaiting\s+for your approval\n\s+approve or ask for changes in its panel: agentmux attach s1/);
    for (const l of live) expect(l.length).toBeLessThanOrEqual(80);
    expect(plain(statusView(input(s), 80)).join("\n")).toContain("resume it to decide: agentmux resume s1");
    expect(plain(statusView(input(stateIn("completing"), true), 80)).join("\n")).not.toContain("Waiting");
  });

  // the reason a finished run has no pull request (gh pr create failed, no origin…) was printed
  // once at the end of the run: agentmux status showed no PR row and no reason
  test("a finished run's notes (why no pull request) are shown, wrapped, and in --json", () => {
    const why = "no pull request: gh pr create failed: GraphQL: Resource not accessible by integration (createPullRequest); the branch feature/x is pushed";
    const s = stateIn("done", { commit_hash: "abc1234", completion_notes: [why, "your checkout is back on main"] });
    const lines = plain(statusView(input(s), 80));
    const text = lines.join("\n");
    expect(text.replace(/\s+/g, " ")).toContain(`Notes ${why} your checkout is back on main`);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(statusJson(input(s)).notes).toEqual([why, "your checkout is back on main"]);
    expect(statusJson(input(stateIn("done"))).notes).toEqual([]);
  });

  test("json is stable and complete", () => {
    const j = statusJson(input(stateIn("failed", { interruption_category: "failed", interruption_cause: "boom" })));
    expect(j.phase).toBe("failed");
    expect(j.interruption).toEqual({ category: "failed", cause: "boom", log_path: null });
    expect(j.resume_command).toBe("agentmux resume s1");
    expect(j.timeline.at(-1)).toEqual({ phase: "failed", event: "run_failed", at: at(13), duration_ms: 0 });
    expect(j.elapsed_ms).toBe(13 * 60_000);
    expect(statusJson(input(stateIn("done"))).resume_command).toBeNull();
  });

  test("a long-dead session shows how long it ran and when it stopped, not a growing Elapsed (#18.20)", () => {
    const s = stateIn("implementing", { created_at: at(0), updated_at: at(12) });
    const later = { ...input(s), now: Date.parse(at(3 * 24 * 60 + 20)) };
    const j = statusJson(later);
    expect(j.elapsed_ms).toBe(12 * 60_000);
    expect(j.stopped_at).toBe(at(12));
    expect(j.timeline.at(-1)!.duration_ms).toBe(3 * 60_000);
    const text = plain(statusView(later, 100)).join("\n");
    expect(text).not.toContain("Elapsed");
    expect(text).toMatch(new RegExp(`Ran\\s+12m 0s active · stopped ${new Date(at(12)).toISOString().slice(0, 10)} \\d\\d:\\d\\d \\(3d ago\\)`));
    // the orchestrator's last sign of life (its log) is later than the last state write
    expect(statusJson({ ...later, lastSeen: Date.parse(at(20)) })).toMatchObject({ elapsed_ms: 20 * 60_000, stopped_at: at(20) });
    // a live run's clock goes on
    const live = statusJson({ ...input(s, true), now: Date.parse(at(30)) });
    expect(live).toMatchObject({ elapsed_ms: 30 * 60_000, stopped_at: null });
    expect(plain(statusView({ ...input(s, true), now: Date.parse(at(30)) }, 100)).join("\n")).toMatch(/Elapsed\s+30m 0s/);
    // a finished run says it finished
    expect(plain(statusView({ ...input(stateIn("done")), now: Date.parse(at(60)) }, 100)).join("\n")).toMatch(/Ran\s+24m 0s active · finished \d\d:\d\d/);
  });

  test("fits narrow widths", () => {
    for (const w of [40, 80]) for (const l of statusView(input(parallel), w)) expect(plainWidth(l)).toBeLessThanOrEqual(w);
  });

  test("a failed run's cause and log path are wrapped at 80 columns, never cut: they say what went wrong and where to look", () => {
    const cause =
      "the [coder] Core greeting module pane exited with status 3 after 2 restarts while the run was implementing; its last line: error: out of credits";
    const log = "/tmp/agentmux-demo-6jR81l/.agentmux/.sessions/20261127-105926-greeting-module/orchestrator.log";
    const lines = statusView(input(stateIn("failed", { interruption_category: "failed", interruption_cause: cause, interruption_log_path: log })), 80);
    for (const l of lines) expect(plainWidth(l)).toBeLessThanOrEqual(80);
    const text = plain(lines).join("\n");
    expect(text).not.toContain("…");
    const failed = text.slice(text.indexOf("Failed"));
    expect(failed.replace(/\s+/g, " ")).toContain(`Cause ${cause}`);
    expect(failed.replace(/\s+/g, "")).toContain(`Log${log}`);
  });
});

describe("goodbye screens", () => {
  test("success shows feature, commit, PR, branch, elapsed", () => {
    const out = goodbye(
      "success",
      { feature: "rate-limit", commit: "a1b2c3d", prUrl: "https://x/pull/4", branch: "feature/rate-limit", elapsedMs: 3723_000 },
      { color: false, width: 80 },
    );
    expect(out).toContain("Implementation complete");
    expect(out).toMatch(/Commit\s+a1b2c3d/);
    expect(out).toMatch(/PR\s+https:\/\/x\/pull\/4/);
    expect(out).toMatch(/Branch\s+feature\/rate-limit/);
    expect(out).toMatch(/Elapsed\s+1h 2m 3s/);
    expect(out).not.toContain("\x1b[");
  });
  test("canceled shows the resume command; failed the reason and log; narrow drops the logo", () => {
    const c = goodbye("canceled", { feature: "f", session: "s1", resumeCommand: "agentmux resume s1" }, { color: true, width: 80 });
    expect(c).toContain("Run canceled");
    expect(c).toContain("agentmux resume s1");
    expect(c).toContain("\x1b[");
    const f = goodbye("failed", { feature: "f", reason: "coder crashed", logPath: "/l/orchestrator.log" }, { color: false, width: 34 });
    expect(f).toMatch(/Reason\s+coder crashed/);
    expect(f).toContain("/l/orchestrator.log");
    expect(f).not.toContain("▄▀█");
    for (const l of f.split("\n")) expect(l.length).toBeLessThanOrEqual(34);
  });
  test('a run agentmux clean removed: no resume command and no "nothing was lost"', () => {
    const state = { feature_dir: "/p/.agentmux/.sessions/s1", interruption_cause: REMOVED_BY_CLEAN } as State;
    expect(resumeCommandOf(state)).toBeUndefined();
    expect(resumeCommandOf({ ...state, interruption_cause: "canceled by the user (Ctrl-C)" })).toBe("agentmux resume s1");
    const c = goodbye("canceled", { feature: "f", session: "s1", reason: REMOVED_BY_CLEAN }, { color: false, width: 100 });
    expect(c).toContain("Canceled by agentmux clean, which removes the session folder: nothing to resume.");
    expect(c).not.toContain("nothing was lost");
    expect(c).not.toContain("Resume");
  });
});

describe("panel pieces", () => {
  test("markdown: headings, bullets, code, bold", () => {
    const lines = markdownLines("# Title\n\nSome **bold** and `code`.\n\n- one\n- two\n\n```\nx = 1\n```", 40);
    expect(plain(lines)).toEqual(["Title", "", "Some bold and code.", "", "• one", "• two", "", "  x = 1"]);
    expect(toTags(lines[2]!)).toContain("{bold}bold{/bold}");
  });
  test("approval and changes content", () => {
    const files = [
      { path: "a.ts", status: "modified" as const },
      { path: "b.ts", status: "added" as const },
    ];
    expect(buildApproval(files, new Set(["b.ts"]), "  feat: x \n")).toEqual({ action: "approve", exclude_files: ["b.ts"], commit_message: "feat: x" });
    expect(buildApproval(files, new Set(), "")).toEqual({ action: "approve", exclude_files: [] });
    expect(changesContent("line one\nline two\n\n\n")).toBe("line one\nline two\n");
    expect(plain(fileLines(files, new Set(["b.ts"]), 1, 40))).toEqual(["  [x] M a.ts", "› [ ] A b.ts"]);
  });
});

describe("usage in the monitor and status (#14.2)", () => {
  const rec = (agent: string, cost_usd: number | null, input = 1000) => ({
    agent,
    provider: "claude",
    model: "claude-sonnet-4-5",
    source: "claude" as const,
    input,
    cached: 20_000,
    cache_write: 0,
    output: 500,
    cost_usd,
  });
  const withUsage = { ...parallel, usage: { a: rec("coder:2", 0.12), b: rec("coder:3", null), c: rec("coder:2", 0.3, 4000) } };

  test("each agent's tokens and cost under it; the run's total in the footer ('+': some had no price)", () => {
    const text = plain(mon(withUsage, 60, 40)).join("\n");
    expect(text).toContain("claude/sonnet-4 · 46k tok $0.42");
    expect(text).toContain("codex · prompt not accepted · 22k tok no price"); // what the agent needs first, then its usage
    expect(text).toMatch(/Σ 68k tok \$0\.42\+ │/);
    expect(plain(mon(parallel, 60, 40)).join("\n")).not.toContain("Σ");
  });

  test("status --json: per agent and total; a run without figures says null", () => {
    const d = { id: "s", dir: "/p/s", state: withUsage, created: [], live: false, toolEvents: 0, now: NOW };
    const j = statusJson(d);
    expect(j.usage).toEqual({
      input: 6000,
      cached: 60_000,
      cache_write: 0,
      output: 1500,
      tokens: 67_500,
      cost_usd: 0.42,
      unpriced: 1,
      models: ["claude-sonnet-4-5"],
      simulated: false,
    });
    expect(j.usage_by_agent["coder:2"]).toMatchObject({ tokens: 46_000, cost_usd: 0.42 });
    expect(statusJson({ ...d, state: parallel }).usage).toBeNull();
    expect(plain(statusView(d, 100)).join("\n")).toContain("Usage      68k tokens (6.0k in, 60k cached, 1.5k out) · $0.42+");
  });

  test("figures from the simulated agent (the demo) say so wherever a cost is shown: nothing was spent", () => {
    const sim = (agent: string) => ({ ...rec(agent, 0.11), provider: "sim" });
    const demo = { ...parallel, usage: { a: sim("coder:2"), b: sim("coder:3") } };
    const d = { id: "s", dir: "/p/s", state: demo, created: [], live: false, toolEvents: 0, now: NOW };
    expect(plain(statusView(d, 100)).join("\n")).toContain("Usage      43k tokens (2.0k in, 40k cached, 1.0k out) · $0.22 (simulated)");
    expect(plain(mon(demo, 60, 40)).join("\n")).toMatch(/Σ 43k tok \$0\.22 \(simulated\)/);
    expect(statusJson(d).usage).toMatchObject({ cost_usd: 0.22, simulated: true });
    // one real agent among simulated ones: real money, no label
    const mixed = { ...d, state: { ...demo, usage: { ...demo.usage, c: rec("coder:2", 0.3) } } };
    expect(plain(statusView(mixed, 100)).join("\n")).toMatch(/· \$0\.52$/m);
    expect(statusJson(mixed).usage).toMatchObject({ simulated: false });
  });
});

test("a run paused at its budget says so whole in a 30-column monitor (the control pane at 80×24): nothing cut", () => {
  const state = stateIn("implementing", {
    budget_reached: { at: at(10), text: "the run has used 12k tokens (11500) of its 1k budget (limits.max_tokens)", paused: true },
  });
  const lines = plain(mon(state, 30, 24));
  const text = lines
    .slice(
      0,
      lines.findIndex((l) => l.startsWith("─ PIPELINE")),
    )
    .join("\n");
  expect(text).not.toContain("…");
  expect(text.replace(/\s+/g, " ")).toContain("⏸ budget reached: agents paused");
  expect(text).toContain("g: go on · c: cancel");
});

describe("sessions table", () => {
  // a run the user canceled ("nothing was lost") read as a red "failed" in the home screen; at 80
  // columns with a long id the LAST EVENT column (which said "canceled") is left out
  test("a canceled run reads canceled, not failed", () => {
    const row = (id: string, state: ReturnType<typeof stateIn>) => ({ id, dir: "/d", state, live: false, ageMs: 0, updatedAt: NOW, socket: "x" }) as any;
    const list = [
      row(
        "20261127-110717-add-a-reverse-function-that-reverses-strings-and",
        stateIn("failed", { interruption_category: "canceled", interruption_cause: "canceled by the user (monitor)" }),
      ),
      row("20261127-112628-add-a-zip-helper", stateIn("failed", { interruption_category: "failed", interruption_cause: "boom" })),
    ];
    const text = sessionsTable(list, 80).map(toPlain);
    expect(text[1]).toMatch(/ canceled /);
    expect(text[2]).toMatch(/ failed /);
  });
});

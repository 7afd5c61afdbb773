import { describe, expect, test } from "bun:test";
import { toAnsi, toPlain, toTags, type Line } from "../../src/views/line.ts";
import { monitorView } from "../../src/views/monitor.ts";
import { monitorInput } from "../helpers/monitor-input.ts";
import { statusView, type StatusInput } from "../../src/views/status.ts";
import { goodbye } from "../../src/views/goodbye.ts";
import { sessionsTable } from "../../src/views/sessions.ts";
import { fileLines, diffLines } from "../../src/views/panel.ts";
import { markdownLines } from "../../src/views/markdown.ts";
import { ProgressPrinter } from "../../src/launcher/progress.ts";
import { draftCommitMessage } from "../../src/effects/git/message.ts";
import { createPullRequest, prBody } from "../../src/effects/gh.ts";
import { formatError } from "../../src/errors.ts";
import { StartDirMissing } from "../../src/effects/tmux/errors.ts";
import { at, stateIn } from "../tui/fixtures.ts";
import { HOSTILE, isInert } from "../helpers/hostile.ts";

/**
 * #18.14: untrusted text (request titles, issues, agent-written summaries, reviews, notes, file
 * names) reaches a terminal, a commit message or a PR body only inert. One hostile value per
 * field, every path checked; our own SGR colours are the only escapes allowed on a terminal.
 */
const EVIL = Object.values(HOSTILE).join(" ");
const ourSgrRemoved = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");
const inertAnsi = (s: string) => isInert(ourSgrRemoved(s).replace(/\n/g, ""));
const ansi = (lines: Line[]) => lines.map((l) => toAnsi(l, { color: true, links: true })).join("\n");
const NOW = Date.parse(at(20));

const hostileState = () =>
  stateIn("reviewing", {
    request_title: `Add ${EVIL}`,
    interruption_cause: `cause ${EVIL}`,
    feature_branch: `feature/${EVIL}`,
    agents: {
      "coder:1": {
        role: "coder",
        label: `coder ${EVIL}`,
        status: "stuck",
        provider: `p${HOSTILE.title}`,
        model: `m${HOSTILE.clear}`,
        since: at(9),
        note: `note ${EVIL}`,
      },
    },
    review_results: { reviewer_logic: { verdict: "fail", summary: `summary ${EVIL}`, commit_message: `feat: x ${EVIL}` } },
    research_tasks: { [`topic ${HOSTILE.title}`]: "done" },
  });

describe("hostile text on every path to a terminal (#18.14)", () => {
  test("status text: every field inert", () => {
    const input: StatusInput = { dir: "/p/s", state: hostileState(), created: [], id: "s1", live: false, toolEvents: 0, now: NOW };
    const out = ansi(statusView(input, 200));
    expect(out).toContain("Add a");
    expect(inertAnsi(out)).toBe(true);
  });

  test("monitor: tags and links inert", () => {
    const lines = monitorView(
      monitorInput({ dir: "/p/s", state: hostileState(), created: [{ at: NOW, path: `06_implementation/done_1${HOSTILE.title}` }], now: NOW, selected: 0 }),
      { width: 200, height: 40 },
    );
    expect(isInert(lines.map((l) => toTags(l)).join(""))).toBe(true);
    expect(inertAnsi(ansi(lines))).toBe(true);
  });

  test("a link's target cannot end its OSC 8 early", () => {
    const line: Line = [{ t: "file", link: `file:///x\x07\x1b]52;c;AAAA\x07` }];
    const out = toAnsi(line, { color: false, links: true });
    expect(out).toBe("\x1b]8;;file:///x\x07file\x1b]8;;\x07");
  });

  test("goodbye screens: feature, reason, branch, resume command inert", () => {
    for (const kind of ["success", "canceled", "failed"] as const) {
      const out = goodbye(
        kind,
        { feature: EVIL, reason: EVIL, branch: EVIL, commit: "abc", prUrl: `https://x/${HOSTILE.title}`, session: "s", resumeCommand: EVIL, logPath: EVIL },
        { color: true, width: 300 },
      );
      expect(inertAnsi(out)).toBe(true);
    }
  });

  test("sessions table, panel files, diffs and the summary's Markdown inert", () => {
    const s = hostileState();
    const table = sessionsTable([{ id: `s${HOSTILE.title}`, dir: "/d", state: s, live: false, ageMs: 0, updatedAt: NOW, socket: "x" } as any], 200, 0);
    expect(isInert(table.map((l) => toTags(l)).join(""))).toBe(true);
    const files = fileLines([{ path: `src/${EVIL}.ts`, status: "added" }], new Set(), 0, 300);
    expect(isInert(files.map((l) => toTags(l)).join(""))).toBe(true);
    expect(isInert(diffLines(`+${EVIL}\n-${EVIL}`, 300).map(toPlain).join(""))).toBe(true);
    expect(
      isInert(
        markdownLines(`# ${EVIL}\n\n- ${EVIL}\n\n\`${EVIL}\``, 300)
          .map((l) => toTags(l))
          .join(""),
      ),
    ).toBe(true);
  });

  test("CI progress lines: labels, notes and causes inert; JSON keeps the data", () => {
    const plain: string[] = [];
    const json: string[] = [];
    const failed = {
      ...hostileState(),
      phase: "failed" as const,
      history: [...(hostileState().history ?? []), { phase: "failed" as const, event: "run_failed" as const, at: at(15) }],
    };
    new ProgressPrinter("/nonexistent", "plain", (l) => plain.push(l)).replay(failed);
    new ProgressPrinter("/nonexistent", "json", (l) => json.push(l)).replay(failed);
    expect(plain.join("\n")).toContain("cause a");
    for (const l of plain) expect(isInert(l)).toBe(true);
    for (const l of json) expect(isInert(l)).toBe(true);
    expect(json.map((l) => JSON.parse(l)).find((o) => o.kind === "agent_stuck").note).toBe(`note ${EVIL}`);
  });

  test("errors: a hostile path in an error's data prints inert", () => {
    const text = formatError(new StartDirMissing({ dir: `/tmp/${EVIL}` }));
    expect(isInert(text.replace(/\n/g, ""))).toBe(true);
  });
});

describe("hostile text in commit messages and PR bodies (#18.14)", () => {
  test("the drafted commit message is inert (subject one line, body keeps its lines)", () => {
    const msg = draftCommitMessage({
      requirements: `# R\n\n## Initial Request\n\nAdd ${EVIL}\n`,
      planOverview: `Plan ${EVIL}\nline two`,
      featureSlug: "x",
      issueNumber: 3,
    });
    expect(isInert(msg.replace(/\n/g, ""))).toBe(true);
    expect(msg.split("\n")[0]).toStartWith("feat: add a");
    expect(msg).toContain("\nline two");
  });

  test("the PR body and title are inert", async () => {
    const body = prBody({ summary: `S ${EVIL}\nsecond line`, requirements: EVIL, planSummary: EVIL, reviewVerdict: EVIL, issueNumber: 4 });
    expect(isInert(body.replace(/\n/g, ""))).toBe(true);
    expect(body).toContain("second line");
    expect(body).toContain("Closes #4");
    let seen: { argv: string[]; stdin?: string } | undefined;
    await createPullRequest({ cwd: "/", title: `T ${EVIL}`, body: `B ${EVIL}`, base: null, head: "h", draft: false }, async (argv, o) => {
      seen = { argv, stdin: o?.stdin };
      return { code: 0, stdout: "https://github.com/o/r/pull/1\n", stderr: "" };
    });
    expect(isInert(seen!.argv.join(" "))).toBe(true);
    expect(isInert(seen!.stdin!.replace(/\n/g, ""))).toBe(true);
  });
});

import { describe, expect, test } from "bun:test";
import { countMatches, dialogText, parseResetTime, questionAtEnd } from "../../src/daemon/screen-facts.ts";
import { nudgeText } from "../../src/prompts/nudge.ts";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../helpers/tmp.ts";

/** a recorded screen (test/fixtures/screens/<cli>/<version>/<name>.txt): its title and text */
function recorded(path: string): { title: string; screen: string } {
  const lines = readFileSync(join(REPO_ROOT, "test", "fixtures", "screens", path), "utf8")
    .replace(/\n$/, "")
    .split("\n");
  let i = 0;
  while (lines[i]?.startsWith("# ")) i++;
  return { title: lines[i]!.slice("title: ".length), screen: lines.slice(i + 1).join("\n") };
}

const NOW = new Date(2026, 10, 23, 14, 30, 0); // local 14:30

describe("reset times on usage-limit screens", () => {
  test.each([
    ["[sim] usage limit reached · resets in 2s", 2_000],
    ["You've hit your usage limit. Try again in 1 hour 20 minutes.", 80 * 60_000],
    ["Rate limited. Retry after 30 seconds", 30_000],
    ["limit reached, try again in 2 days 3 hours", (2 * 24 + 3) * 3_600_000],
    ["quota exhausted: retry in 5m", 5 * 60_000],
  ])("%s", (text, ms) => {
    expect(Date.parse(parseResetTime(text, NOW)!) - NOW.getTime()).toBe(ms);
  });

  test("clock times: the next such time of day", () => {
    const at = (text: string) => new Date(parseResetTime(text, NOW)!);
    expect(at("5-hour limit reached ∙ resets 3pm").getHours()).toBe(15);
    expect(at("usage limit reached · resets 3pm").getDate()).toBe(23);
    expect(at("Your limit will reset at 9:15 am").getDate()).toBe(24); // 9:15 has passed today
    expect(at("resets at 16:45")).toEqual(new Date(2026, 10, 23, 16, 45, 0));
  });

  test("no time shown: null (agentmux retries after watchdog.limit_retry_s)", () => {
    expect(parseResetTime("API Error: 429 rate_limit_error", NOW)).toBeNull();
    expect(parseResetTime("resets 3", NOW)).toBeNull();
  });
});

describe("a question at the end of a turn", () => {
  const CLAUDE_READY = /^❯[ \u00a0]*\n─+\n(?!.*esc to interrupt).*$/m;
  test("claude: the last line above the input box", () => {
    const screen = [
      "● I read the code.",
      "",
      "● Should the limit apply per user or per IP address?",
      "",
      "✻ Worked for 3s",
      "",
      "─".repeat(40),
      "❯\u00a0",
      "─".repeat(40),
      "  ? for shortcuts",
    ].join("\n");
    expect(questionAtEnd(screen, CLAUDE_READY)).toBe("Should the limit apply per user or per IP address?");
  });
  test("a statement is no question; nor is a question higher up", () => {
    const screen = ["● Is this right? I think so.", "● Done: wrote the plan.", "─".repeat(40), "❯\u00a0", "─".repeat(40), "  ? for shortcuts"].join("\n");
    expect(questionAtEnd(screen, CLAUDE_READY)).toBeNull();
  });
  test("the sim: the question above its input line and status", () => {
    const screen = [
      "sim agent · architect",
      "─".repeat(30),
      "● before I start I need one decision from you.",
      "Should the greeting also support other languages, or English only?",
      "",
      "› ",
      "[sim] ready",
    ].join("\n");
    expect(questionAtEnd(screen, /\[sim\] ready/)).toBe("Should the greeting also support other languages, or English only?");
  });
});

test("countMatches counts every appearance", () => {
  expect(countMatches(/usage limit reached/, "a usage limit reached\nb\nusage limit reached again")).toBe(2);
  expect(countMatches(/^x$/m, "x\ny\nx")).toBe(2);
});

describe("the reminder text", () => {
  test("names the CLI's tool and the file, what to do when blocked, and its number", () => {
    expect(
      nudgeText({
        tool: "mcp__agentmux__submit_plan",
        file: "/s/04_planning/plan.yaml",
        assumptions: "/s/assumptions.md",
        attempt: 1,
        limit: 2,
        decide: false,
      }),
    ).toBe(
      "Your task is not complete until you call `mcp__agentmux__submit_plan`. If /s/04_planning/plan.yaml is ready, call `mcp__agentmux__submit_plan` now. " +
        "If you are blocked, write what blocks you to /s/assumptions.md, finish what you can, and call `mcp__agentmux__submit_plan`. (Reminder 1 of 2.)",
    );
  });
  test("a file-only task, a refusal, and an unattended run", () => {
    const t = nudgeText({
      tool: null,
      file: "/s/05_design/design.md",
      assumptions: "/s/assumptions.md",
      attempt: 2,
      limit: 2,
      refusal: "bad\nthing.",
      decide: true,
    });
    expect(t).toStartWith("Your last call was refused: bad thing. Fix what it names. Your task is not complete until /s/05_design/design.md exists");
    expect(t).toContain("Nobody can answer questions here: decide yourself and note each assumption in /s/assumptions.md.");
    expect(t).toEndWith("(Reminder 2 of 2.)");
  });
});

test("a stuck cause quotes the CLI's own warning (gemini skipping a settings file, #12.10)", async () => {
  const { cliWarning } = await import("../../src/daemon/agent-delivery.ts");
  const screen = [
    "╭──────────╮",
    "│ ⚠ Security Warning: Skipping system defaults file '/x/s.json': Parent directory '/x' is not owned by root (uid 0). │",
    "╰──────────╯",
    " >   Type your message or @path/to/file",
  ].join("\n");
  expect(cliWarning(screen)).toBe("⚠ Security Warning: Skipping system defaults file '/x/s.json': Parent directory '/x' is not owned by root (uid 0).");
  expect(cliWarning("all fine\n> ")).toBeNull();
});

describe("a dialog's words", () => {
  // the monitor shows the start of this text in a 30-column row: it said "asks permission: ● …"
  // (the transcript line above the dialog) for demo --scenario permission=coder at 80x24
  test("the line that asks comes first, then the lines around it", () => {
    const screen = [
      "● conversation 93f77796-b58b-4137-840c-ac4d4d9ea964",
      '› Read and follow the instructions in "/tmp/x/06_implementation/coder_prompt_4.md"',
      "[sim] permission: run `npm test` in /tmp/agentmux",
      "-demo-12wPbi? (y = allow, Esc = decline)",
      "",
      "[sim] waiting for permission",
    ].join("\n");
    expect(dialogText(screen, "", /\[sim\] permission: /)).toBe(
      '[sim] permission: run `npm test` in /tmp/agentmux · ● conversation 93f77796-b58b-4137-840c-ac4d4d9ea964 · › Read and follow the instructions in "/tmp/x/06_implementation/coder_prompt_4.md" · -demo-12wPbi? (y = allow, Esc = decline) · [sim] waiting for permission',
    );
  });

  test("claude's tool dialog: its question, then what it is about and the choices; box lines are left out", () => {
    const screen = [
      "╭──────────────╮",
      "Tool use",
      'agentmux - submit_done(summary: "s") (MCP)',
      "Signal that the task is complete.",
      "Do you want to proceed?",
      "❯ 1. Yes",
      "2. Yes, and don't ask again",
      "3. No",
      "╰──────────────╯",
    ].join("\n");
    expect(dialogText(screen, "", /Do you want to (proceed|make this edit|create|allow|run)/)).toBe(
      'Do you want to proceed? · Tool use · agentmux - submit_done(summary: "s") (MCP) · Signal that the task is complete. · ❯ 1. Yes · 2. Yes, and don\'t ask again · 3. No',
    );
  });

  // the monitor showed "Chat about this · 2. Hi · 3. Type something." for claude's question (#27.3)
  test("claude's question (recorded, 2.1.330): the question itself, not the hint that matched or only its choices", () => {
    const { title, screen } = recorded("claude/2.1.330/dialog-question.txt");
    expect(dialogText(screen, title, /Chat about this/m)).toBe("Should the greeting say Hello or Hi? · ☐ Greeting · ❯ 1. Hello · 2. Hi · 3. Type something.");
  });

  test("qwen (recorded, 0.15.10): the question inside its box, though the status line below it matched last", () => {
    const { title, screen } = recorded("qwen/0.15.10/dialog-permission.txt");
    expect(dialogText(screen, title, /Allow execution of MCP tool|Waiting for user confirmation/m)).toBe(
      'Allow execution of MCP tool "submit_done" from server "agentmux"? · › 1. Yes, allow once · 2. Always allow mcp__agentmux__submit_done in this project · 3. Always allow … for this user',
    );
  });

  test("cursor (recorded): the question above the command, though a hint under it matched", () => {
    const { title, screen } = recorded("cursor/2026.06.15/dialog-permission.txt");
    expect(dialogText(screen, title, /Use \/auto-run to skip all approvals|reject & propose changes/m)).toStartWith("Run this command? · rm -rf build · ");
  });

  test("gemini (recorded, 0.61.0): box walls are left out of the question and what it is about", () => {
    const { title, screen } = recorded("gemini/0.61.0/dialog-permission.txt");
    expect(dialogText(screen, title, /Allow execution of MCP tool/m)).toStartWith(
      'Allow execution of MCP tool "submit_done" from server "agentmux"? · ? submit_done (agentmux MCP Server) {"summary":"done"} · ● 1. Allow once',
    );
  });

  test("no line matches (the title did): the title", () => {
    expect(dialogText("working…", "✋  Action Required (repo)", /Action Required/)).toBe("✋  Action Required (repo)");
  });
});

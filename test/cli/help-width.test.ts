import { describe, expect, test } from "bun:test";
import { SPECS } from "../../src/cli/commands.ts";
import { commandHelp, HELP_WIDTH, mainHelp, reflow } from "../../src/cli/help.ts";

/** Columns of a line: one per character (the help text has no wide characters). */
const columns = (line: string) => [...line].length;
const tooLong = (text: string) => text.split("\n").filter((l) => columns(l) > 80);

describe("help fits an 80-column terminal", () => {
  test("the width is 80", () => expect(HELP_WIDTH).toBe(80));

  test("every command's help (hidden ones too) has no line over 80 columns", () => {
    for (const spec of SPECS) expect({ command: spec.name, lines: tooLong(commandHelp(spec)) }).toEqual({ command: spec.name, lines: [] });
  });

  test("agentmux --help has no line over 80 columns", () => {
    expect(tooLong(mainHelp(SPECS))).toEqual([]);
  });

  test("long flag help wraps under its own column", () => {
    const run = SPECS.find((s) => s.name === "run")!;
    const lines = commandHelp(run).split("\n");
    const ci = lines.findIndex((l) => l.includes("--ci "));
    const column = lines[ci]!.indexOf("headless");
    expect(lines[ci + 1]!.slice(0, column).trim()).toBe("");
    expect(lines[ci + 1]!.slice(column)).toMatch(/^\S/);
  });
});

describe("reflow", () => {
  test("joins hand-wrapped prose and wraps it at the width", () => {
    const text = "one two three\nfour five six seven\neight";
    expect(reflow(text, 12)).toBe("one two\nthree four\nfive six\nseven eight");
  });

  test("keeps paragraphs apart and indented lines (examples) as they are", () => {
    const text = "Start a one-word request\nexplicitly:\n  agentmux run refactor --with a long example line\n\nNext paragraph.";
    expect(reflow(text, 20)).toBe("Start a one-word\nrequest explicitly:\n  agentmux run refactor --with a long example line\n\nNext paragraph.");
  });

  test("a definition list item wraps under its text column", () => {
    const text = "  check   decide from the event whether\n          to run, and which packages";
    expect(reflow(text, 31)).toBe("  check   decide from the event\n          whether to run, and\n          which packages");
  });
});

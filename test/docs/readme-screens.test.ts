import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ansiToSvg, parseLine, sgr } from "../../scripts/ansi-svg.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

/** #11.16: the README's screen pictures, and the ANSI → SVG renderer that draws them. */
describe("ansi-svg", () => {
  test("SGR: 16, 256 and 24-bit colours, bold/dim/inverse, resets", () => {
    expect(sgr({}, [1, 32])).toEqual({ bold: true, fg: "#a6e3a1" });
    expect(sgr({}, [38, 5, 196]).fg).toBe("#ff0000");
    expect(sgr({}, [48, 2, 1, 2, 3]).bg).toBe("#010203");
    expect(sgr({ bold: true, fg: "#fff" }, [0])).toEqual({});
    expect(sgr({ inverse: true }, [27])).toEqual({ inverse: false });
  });

  test("runs sit at their columns, counting wide characters as two", () => {
    const { runs } = parseLine("ab\x1b[31m日本\x1b[0mc\x1b]0;title\x07d");
    expect(runs.map((r) => [r.col, r.text])).toEqual([[0, "ab"], [2, "日本"], [6, "cd"]]);
  });

  test("the SVG keeps the text, escapes it, and pins each run to its cells", () => {
    const svg = ansiToSvg("\x1b[1m<a&b>\x1b[0m  x\n\x1b[7minv\x1b[0m", { title: "t", cols: 10 });
    expect(svg).toStartWith("<svg ");
    expect(svg).toContain(">&lt;a&amp;b&gt;</text>");
    expect(svg).toContain('font-weight="bold"');
    expect(svg).toMatch(/<rect x="16\.0" y="\d+" width="25\.2" height="\d+" fill="#cdd6f4"\/>/); // inverse: fg as background
    expect(svg).toContain('textLength="42.0"');
  });
});

describe("README pictures", () => {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  for (const [file, shows] of [["monitor.svg", ["PIPELINE", "AGENTS", "Ctrl-b d", "detach"]], ["approval-panel.svg", ["Changed files", "Commit message", "approve"]]] as const) {
    test(`${file}: linked from the README, drawn by scripts/ansi-svg.ts from the real screen`, () => {
      expect(readme).toContain(`(docs/images/${file})`);
      const path = join(REPO_ROOT, "docs", "images", file);
      expect(existsSync(path)).toBe(true);
      const svg = readFileSync(path, "utf8");
      expect(svg).toContain('lengthAdjust="spacingAndGlyphs"');
      for (const s of shows) expect(svg).toContain(s);
    });
  }

  test("the README says how to put agentmux on PATH and how to see the panel", () => {
    expect(readme).toContain("sh install.sh --source");
    expect(readme).toContain("demo --approve");
    expect(readFileSync(join(REPO_ROOT, "install.sh"), "utf8")).toContain("--source)");
  });
});

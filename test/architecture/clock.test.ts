import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { lineViolations, sources, SRC } from "./imports.ts";

/**
 * The daemon's time runs on a Clock (src/effects/clock.ts): its timers, waits and measured
 * durations take the clock they are given, so a unit test moves a fake one (test/helpers/fake-clock.ts)
 * and a policy measured in seconds is tested in milliseconds. No file of src/daemon/ (nor the
 * pane writer, whose delivery policy it drives) reads the time or sets a timer on its own.
 * An event's stamp (`new Date().toISOString()`) is a stamp, not a measurement: allowed.
 */
const RULES: [RegExp, string][] = [
  [/\bsetTimeout\s*\(/, "sets a timer (clock.after)"],
  [/\bsetInterval\s*\(/, "sets a timer (clock.every)"],
  [/\bBun\.sleep\s*\(/, "sleeps (clock.sleep)"],
  [/\bperformance\.now\s*\(/, "reads the time (clock.now)"],
  [/\bDate\.now\s*\(/, "reads the time (clock.now)"],
];

const ON_THE_CLOCK = [...sources(join(SRC, "daemon")), join(SRC, "effects", "tmux", "deliver.ts")];

export const clockViolations = (files: { path: string; text: string }[]) => lineViolations(files, RULES);

describe("the daemon's time runs on a Clock", () => {
  test("no daemon file sets a timer, sleeps or reads the time but through the clock it is given", () => {
    const files = ON_THE_CLOCK.map((p) => ({ path: relative(SRC, p), text: readFileSync(p, "utf8") }));
    expect(files.length).toBeGreaterThan(25);
    expect(clockViolations(files)).toEqual([]);
  });

  test("the check sees what it forbids, and not a stamp or a comment", () => {
    const bad = [
      "const t = setTimeout(fn, 5);",
      "setInterval(() => tick(), 500);",
      "await Bun.sleep(200);",
      "const t0 = performance.now();",
      "x.at = Date.now() - started;",
      "const at = new Date().toISOString(); // not Date.now() here, nor setTimeout(f)",
      "/* Bun.sleep(1) in prose */ clock.after(5, fn);",
    ].join("\n");
    expect(clockViolations([{ path: "daemon/x.ts", text: bad }]).map((v) => v.split(" ")[0])).toEqual([
      "daemon/x.ts:1",
      "daemon/x.ts:2",
      "daemon/x.ts:3",
      "daemon/x.ts:4",
      "daemon/x.ts:5",
    ]);
  });
});

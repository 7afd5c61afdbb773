import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";

/**
 * What the simulated coder adds to a test file it wrote for the checks scenarios: a test that
 * hangs (check_hang: a check such as `npm test` runs into its timeout) or one that fails on its
 * first run only (check_flaky). Each sits between markers, so the simulated fixer can take a
 * hanging one out again.
 */
const START = (kind: string) => `// sim-check: ${kind}`;
const END = "// sim-check: end";

export function hangingTest(fn: string): string {
  return [
    "",
    START("hang"),
    `test(${JSON.stringify(`${fn} answers in time`)}, async () => {`,
    "  await new Promise((resolve) => setTimeout(resolve, 3_600_000));",
    "});",
    END,
    "",
  ].join("\n");
}

/** Fails the first time it runs in this checkout (a marker in the temp folder), passes after. */
export function flakyTest(fn: string): string {
  return [
    "",
    START("flaky"),
    `test(${JSON.stringify(`${fn} is ready`)}, async () => {`,
    '  const { existsSync, writeFileSync } = await import("node:fs");',
    '  const { tmpdir } = await import("node:os");',
    '  const { createHash } = await import("node:crypto");',
    '  const mark = `${tmpdir()}/agentmux-sim-flaky-${createHash("sha256").update(import.meta.url).digest("hex").slice(0, 32)}`;',
    "  if (existsSync(mark)) return;",
    '  writeFileSync(mark, "");',
    '  assert.fail("not ready yet (a flaky test: it passes when run again)");',
    "});",
    END,
    "",
  ].join("\n");
}

/** Take the hanging test out of a test file; true when there was one. */
export function mendHang(workDir: string, file: string): boolean {
  const abs = join(workDir, file);
  if (!existsSync(abs)) return false;
  const text = readFileSync(abs, "utf8");
  const at = text.indexOf(START("hang"));
  if (at < 0) return false;
  const end = text.indexOf(END, at);
  if (end < 0) return false;
  writeFileAtomic(abs, text.slice(0, at).replace(/\n$/, "") + text.slice(end + END.length).replace(/^\n/, ""));
  return true;
}

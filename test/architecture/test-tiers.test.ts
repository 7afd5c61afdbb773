import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fastTier, isSlow, testFiles } from "../../scripts/test-tiers.ts";
import { makeTmpDir, REPO_ROOT } from "../helpers/tmp.ts";

/** A small test tree: files and their sources. */
function tree(files: Record<string, string>): string {
  const root = makeTmpDir("amx-tiers-");
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), source);
  }
  return root;
}

// the fixtures' sources are spelled in pieces, so that this file itself reads as fast
const BIN = "BINA" + "RY";
const SOCKET = "private" + "Socket";

test("the scanner calls a test slow when it, or a test module it imports, starts tmux or the binary", () => {
  const root = tree({
    "helpers/tmp.ts": `export const ${BIN} = "dist/" + "agentmux"; export function ${SOCKET}() {}`,
    "e2e/harness.ts": `import { ${BIN} } from "../helpers/tmp.ts";\nexport const run = () => Bun.spawn([${BIN}]);`,
    "e2e/run.test.ts": `import { run } from "./harness.ts";\ntest("x", () => run());`,
    "tmux/pane.test.ts": `import { ${SOCKET} } from "../helpers/tmp.ts";\nconst s = ${SOCKET}();`,
    "tmux/raw.test.ts": `Bun.spawnSync([` + `"tmux", "-L", "x", "ls"]);`,
    "views/pure.test.ts": `import { makeTmpDir } from "../helpers/tmp.ts";\ntest("y", () => makeTmpDir());`,
    "real-cli/opt-in.test.ts": `test("z", () => {});`,
  });
  expect(isSlow(join(root, "e2e/run.test.ts"), root)).toBe(true);
  expect(isSlow(join(root, "tmux/pane.test.ts"), root)).toBe(true);
  expect(isSlow(join(root, "tmux/raw.test.ts"), root)).toBe(true);
  // importing the helper that defines them, for a temp dir, is not using them
  expect(isSlow(join(root, "views/pure.test.ts"), root)).toBe(false);
  expect(fastTier(root)).toEqual([join(root, "views/pure.test.ts")]);
});

test("on this tree: the orchestrator's tests are fast, the end-to-end tests are not, and the fast tier is most of the pure code", () => {
  const root = join(REPO_ROOT, "test");
  const fast = new Set(fastTier(root));
  const all = testFiles(root);
  expect(all.filter((f) => f.includes("/orchestrator/") && !fast.has(f)).length).toBeLessThan(all.filter((f) => f.includes("/orchestrator/")).length / 2);
  expect(all.filter((f) => f.includes("/e2e/") && fast.has(f))).toEqual([]);
  expect(fast.has(join(root, "e2e", "demo.test.ts"))).toBe(false);
  expect(fast.has(join(root, "architecture", "test-tiers.test.ts"))).toBe(true);
});

/**
 * The test command: type-checks (tsc), builds dist/agentmux (end-to-end tests drive the
 * compiled binary), checks the formatting (prettier, .prettierrc.json: `npm run format` fixes
 * it), runs `bun test` in a HOME of its own, and ends with one line "N passed, N failed" while
 * keeping bun's exit code. A type error, a badly formatted file or a failed build counts as one
 * failure.
 *
 * `--fast` (npm run test:fast): no build, and only the test files that start no tmux server and
 * no compiled binary (scripts/test-tiers.ts), for the inner loop. Other arguments go to bun test.
 */
import { join } from "node:path";
import { fastTier } from "./test-tiers.ts";
import { isolatedHome } from "./test-home.ts";

const root = join(import.meta.dir, "..");
const fast = process.argv.includes("--fast");
const args = process.argv.slice(2).filter((a) => a !== "--fast");
const bun = process.execPath; // bun is not on PATH when started as ./node_modules/.bin/bun
const step = (what: string) => console.error(`test: ${what}`);
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

if (!process.env.AGENTMUX_SKIP_TYPECHECK) {
  const t = performance.now();
  // the web page's script is checked with the DOM's types, apart from the rest (src/web/client/tsconfig.json)
  for (const project of [root, join(root, "src/web/client")]) {
    step(`type-checking (tsc -p ${project === root ? "." : "src/web/client"})…`);
    const tsc = Bun.spawnSync([join(root, "node_modules", ".bin", "tsc"), "-p", project], { stdout: "inherit", stderr: "inherit" });
    if (tsc.exitCode !== 0) {
      console.error("tsc: type errors (above)");
      console.log("0 passed, 1 failed");
      process.exit(1);
    }
  }
  step(`types are sound (${seconds(t)})`);
}

if (!process.env.AGENTMUX_SKIP_FORMAT) {
  const t = performance.now();
  step("checking the formatting (prettier --check)…");
  const globs = ["src/**/*.ts", "test/**/*.ts", "bench/**/*.ts", "scripts/**/*.ts", "build.ts"];
  const check = Bun.spawnSync([join(root, "node_modules", ".bin", "prettier"), "--check", "--log-level", "warn", ...globs], {
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  });
  if (check.exitCode !== 0) {
    console.error("prettier: the files above are not formatted (npm run format)");
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
  step(`formatted (${seconds(t)})`);
}

if (!fast && !process.env.AGENTMUX_SKIP_BUILD) {
  const t = performance.now();
  step("building dist/agentmux…");
  const build = Bun.spawnSync([bun, "build.ts"], { stdout: "inherit", stderr: "inherit" });
  if (build.exitCode !== 0) {
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
  step(`built (${seconds(t)})`);
}

// the opt-in real-CLI suite runs the CLIs as their user would, in the user's own HOME
const home = process.env.AGENTMUX_REAL_CLI === "1" ? null : isolatedHome();
const files = fast ? fastTier(join(root, "test")) : [];
step(`${fast ? `the fast tier: ${files.length} files` : "the whole suite"}${home ? `, HOME ${home.dir}` : ""}…`);
const proc = Bun.spawn([bun, "test", "--timeout", "120000", ...files, ...args], { stdout: "inherit", stderr: "pipe", env: home?.env ?? process.env });
let tail = "";
const decoder = new TextDecoder();
for await (const chunk of proc.stderr) {
  const text = decoder.decode(chunk, { stream: true });
  process.stderr.write(text);
  tail = (tail + text).slice(-20000);
}
const code = await proc.exited;
home?.[Symbol.dispose]();
const count = (word: string) => {
  const m = tail.match(new RegExp(`^\\s*(\\d+) ${word}$`, "m"));
  return m ? Number(m[1]) : 0;
};
const passed = count("pass");
const failed = count("fail");
const skipped = count("skip");
const failedTotal = code !== 0 && failed === 0 ? 1 : failed;
console.log(`${passed} passed, ${failedTotal} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(code);

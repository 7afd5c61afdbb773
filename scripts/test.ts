/**
 * The test command: type-checks (tsc), builds dist/agentmux (end-to-end tests drive the
 * compiled binary), checks the formatting (prettier, .prettierrc.json: `npm run format` fixes
 * it), then runs the test files in a HOME of its own, several at a time (bun test --parallel:
 * AGENTMUX_TEST_JOBS workers, one more than the cores by default; scripts/test-plan.ts), and
 * ends with one line "N passed, N failed" over all of them, failing if any bun test failed. A
 * type error, a badly formatted file or a failed build counts as one failure.
 *
 * Each file's duration is measured (dist/test-timings.json; `bun scripts/test-timings.ts` prints
 * them); the committed test/timings.json starts the slowest files first and balances the workers.
 *
 * `--fast` (npm run test:fast): no build, and only the test files that start no tmux server and
 * no compiled binary (scripts/test-tiers.ts), for the inner loop. Other arguments go to bun test:
 * paths pick the files, flags (`-t name`) go to every bun test it starts.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fastTier, testFiles } from "./test-tiers.ts";
import { isolatedHome } from "./test-home.ts";
import { asArg, groups, selectFiles, splitArgs, testJobs } from "./test-plan.ts";
import { addCounts, failedTests, Kept, summaryCounts, summaryLine, type Counts } from "./test-output.ts";

const root = join(import.meta.dir, "..");
const fast = process.argv.includes("--fast");
const args = process.argv.slice(2).filter((a) => a !== "--fast");
const bun = process.execPath; // bun is not on PATH when started as ./node_modules/.bin/bun
const step = (what: string) => console.error(`test: ${what}`);
/** A step before the tests failed (its output, or `why`, says how): it counts as one failure. */
function stopBeforeTests(why?: string): never {
  if (why) console.error(why);
  console.log("0 passed, 1 failed");
  process.exit(1);
}
const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

if (!process.env.AGENTMUX_SKIP_TYPECHECK) {
  const t = performance.now();
  // the web page's script is checked with the DOM's types, apart from the rest (src/web/client/tsconfig.json)
  for (const project of [root, join(root, "src/web/client")]) {
    step(`type-checking (tsc -p ${project === root ? "." : "src/web/client"})…`);
    const tsc = Bun.spawnSync([join(root, "node_modules", ".bin", "tsc"), "-p", project], { stdout: "inherit", stderr: "inherit" });
    if (tsc.exitCode !== 0) stopBeforeTests("tsc: type errors (above)");
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
  if (check.exitCode !== 0) stopBeforeTests("prettier: the files above are not formatted (npm run format)");
  step(`formatted (${seconds(t)})`);
}

if (!fast && !process.env.AGENTMUX_SKIP_BUILD) {
  const t = performance.now();
  step("building dist/agentmux…");
  const build = Bun.spawnSync([bun, "build.ts"], { stdout: "inherit", stderr: "inherit" });
  if (build.exitCode !== 0) stopBeforeTests();
  step(`built (${seconds(t)})`);
}

// the opt-in real-CLI suite runs the CLIs as their user would, in the user's own HOME
const home = process.env.AGENTMUX_REAL_CLI === "1" ? null : isolatedHome();
let jobs: number;
try {
  jobs = testJobs(process.env, availableParallelism());
} catch (e) {
  stopBeforeTests(`test: ${(e as Error).message}`);
}
const { patterns, flags } = splitArgs(args);
const files = selectFiles(fast ? fastTier(join(root, "test")) : testFiles(join(root, "test")), patterns, process.cwd());
if (!files.length) stopBeforeTests(`test: no test file${fast ? " of the fast tier" : ""} matches ${patterns.map((p) => `"${p}"`).join(", ")}`);
const { parallel, serial } = groups(files, root);
step(
  `${fast ? "the fast tier" : patterns.length ? "the selected tests" : "the whole suite"}: ${files.length} files, ${Math.min(jobs, parallel.length)} at a time${serial.length ? ` (then ${serial.length} alone)` : ""}${home ? `, HOME ${home.dir}` : ""}…`,
);

// per-file durations: test/timings.json (committed) orders and balances the workers; this run's are kept in dist/
const measured = join(home?.dir ?? tmpdir(), `test-timings-${process.pid}.json`);
const committed = join(root, "test", "timings.json");
if (existsSync(committed)) copyFileSync(committed, measured);
else writeFileSync(measured, JSON.stringify({ version: 1, files: {} }));
let total: Counts = { passed: 0, failed: 0, skipped: 0 };
let code = 0;
const failures: string[] = [];
for (const [group, n] of [
  [parallel, Math.min(jobs, parallel.length)],
  [serial, 1],
] as const) {
  if (!group.length) continue;
  const workers = n > 1 ? [`--parallel=${n}`] : [];
  const cmd = [bun, "test", "--timeout", "120000", ...workers, "--timings", measured, "--update-timings", ...flags, ...group.map((f) => asArg(f, root))];
  const proc = Bun.spawn(cmd, { cwd: root, stdout: "inherit", stderr: "pipe", env: home?.env ?? process.env });
  const kept = new Kept((text) => process.stderr.write(text));
  for await (const chunk of proc.stderr) kept.add(chunk);
  const exit = await proc.exited;
  total = addCounts(total, summaryCounts(kept.text(), exit));
  failures.push(...failedTests(kept.text()));
  if (exit !== 0 && code === 0) code = exit;
}
mkdirSync(join(root, "dist"), { recursive: true });
copyFileSync(measured, join(root, "dist", "test-timings.json"));
rmSync(measured, { force: true });
home?.[Symbol.dispose]();
if (failures.length && serial.length && parallel.length) console.error(`\nfailed:\n${failures.join("\n")}`);
console.log(summaryLine(total));
process.exit(code);

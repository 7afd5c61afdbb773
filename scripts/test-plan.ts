/**
 * What `npm test` runs and how: the test files its arguments select, how many `bun test`
 * workers run them side by side (AGENTMUX_TEST_JOBS), and which files must run alone.
 * Pure: scripts/test.ts starts the processes.
 */
import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";

/**
 * Files that never run beside another: the opt-in real-CLI suite drives the user's own CLIs in
 * the user's HOME (their settings and lock files are one per user), so its two files take turns.
 */
export const SERIAL: readonly string[] = ["test/real-cli/"];

/** bun test's flags that take their value as the next argument (`-t name`): that value is not a path. */
const VALUE_FLAGS = new Set([
  "-t",
  "--test-name-pattern",
  "--timeout",
  "--rerun-each",
  "--retry",
  "--seed",
  "--coverage-reporter",
  "--coverage-dir",
  "--reporter",
  "--reporter-outfile",
  "--max-concurrency",
  "--path-ignore-patterns",
  "--shard",
  "--timings",
  "--parallel-delay",
  "--preload",
]);

/** The arguments for bun test, split into path patterns (which files) and everything else. */
export function splitArgs(args: readonly string[]): { patterns: string[]; flags: string[] } {
  const patterns: string[] = [];
  const flags: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith("-")) patterns.push(a);
    else if (VALUE_FLAGS.has(a) && i + 1 < args.length) flags.push(a, args[++i]!);
    else flags.push(a);
  }
  return { patterns, flags };
}

/**
 * The files a pattern names, as bun test reads it: an existing file or folder (relative to
 * `cwd`) is that file or everything under it, anything else is a part of the file's path.
 */
export function selectFiles(files: readonly string[], patterns: readonly string[], cwd: string): string[] {
  if (!patterns.length) return [...files];
  const matchers = patterns.map((p) => {
    const path = isAbsolute(p) ? p : resolve(cwd, p);
    if (existsSync(path)) return (f: string) => f === path || f.startsWith(`${path}/`);
    return (f: string) => relative(cwd, f).includes(p) || f.includes(p);
  });
  return files.filter((f) => matchers.some((m) => m(f)));
}

/** The selected files in two groups: those that may run side by side, and those that run alone after them. */
export function groups(files: readonly string[], root: string): { parallel: string[]; serial: string[] } {
  const alone = (f: string) => SERIAL.some((s) => relative(root, f).startsWith(s));
  return { parallel: files.filter((f) => !alone(f)), serial: files.filter(alone) };
}

/**
 * How many test files run at once: AGENTMUX_TEST_JOBS, else one more than the cores (most of
 * an end-to-end test's time is waiting on tmux and the binary's processes, not CPU). 1 is a
 * serial run in one process.
 */
export function testJobs(env: Record<string, string | undefined>, cores: number): number {
  const set = env.AGENTMUX_TEST_JOBS;
  if (set === undefined || set === "") return Math.max(1, cores) + 1;
  if (!/^[1-9]\d*$/.test(set.trim())) throw new Error(`AGENTMUX_TEST_JOBS must be a whole number of test processes, 1 or more (it is "${set}")`);
  return Number(set.trim());
}

/** A file's path as bun test is given it and writes it into its timings: `./test/…`, relative to the checkout. */
export const asArg = (file: string, root: string) => `./${relative(root, file)}`;

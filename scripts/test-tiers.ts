/**
 * Which test files make the fast tier: those that start no tmux server and no compiled binary,
 * directly or through a test module they import. What a file uses is read from its source (and
 * its relative imports'), so a new test lands in the right tier without a list to keep.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** A use of a private tmux server, the compiled binary, or a full run, in a test's source. */
export const SLOW_MARKERS: readonly RegExp[] = [
  /\bprivateSocket\s*\(/,
  /\.socket\s*\(\s*\)/,
  /\bisolatedBinary\s*\(/,
  /\bbinaryScope\s*\(/,
  /\bBINARY\b/,
  /dist\/agentmux/,
  /\[\s*["']tmux["']/,
];

/** Where those resources are defined, not used: importing it alone (for a temp dir) is not slow. */
export const DEFINITION_SITES: readonly string[] = ["helpers/tmp.ts"];

const IMPORT = /(?:import|export)\s[^'"]*?from\s+["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

/** The relative modules a source imports, resolved to files that exist. */
export function relativeImports(file: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(IMPORT)) {
    const target = resolve(dirname(file), m[1] ?? m[2]!);
    if (existsSync(target)) out.push(target);
  }
  return out;
}

/** Whether a test file (or anything it imports from the test tree) starts tmux or the binary. */
export function isSlow(file: string, testRoot: string, read: (f: string) => string = (f) => readFileSync(f, "utf8"), seen = new Set<string>()): boolean {
  if (seen.has(file)) return false;
  seen.add(file);
  const source = read(file);
  if (DEFINITION_SITES.includes(relative(testRoot, file))) return false;
  if (SLOW_MARKERS.some((m) => m.test(source))) return true;
  return relativeImports(file, source)
    .filter((f) => !relative(testRoot, f).startsWith(".."))
    .some((f) => isSlow(f, testRoot, read, seen));
}

export function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The fast tier: every test file under `testRoot` that is not slow, except the opt-in real-CLI suite. */
export function fastTier(testRoot: string): string[] {
  return testFiles(testRoot).filter((f) => !relative(testRoot, f).startsWith("real-cli") && !isSlow(f, testRoot));
}

if (import.meta.main) {
  const root = join(import.meta.dir, "..", "test");
  const fast = fastTier(root);
  for (const f of fast) console.log(relative(join(root, ".."), f));
  console.error(`${fast.length} of ${testFiles(root).length} test files are in the fast tier`);
}

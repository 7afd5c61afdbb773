import { resolve } from "node:path";

/**
 * A script bundled for the browser when the binary is built: imported `with { type: "macro" }`,
 * so `bun build` runs this at build time and embeds the result as a string (and `bun test` runs
 * it when it loads the importer). Bun.build cannot run inside a macro: the bundler's own CLI
 * does the work. `entry` is relative to src/.
 */
export function browserBundle(entry: string): string {
  const file = resolve(import.meta.dir, "../..", entry);
  const r = Bun.spawnSync([process.execPath, "build", file, "--target=browser", "--format=iife", "--minify"], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, BUN_BE_BUN: "1" },
  });
  if (r.exitCode !== 0) throw new Error(`bundling ${file} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

/**
 * The page's script, bundled for the browser when the binary is built: imported
 * `with { type: "macro" }`, so `bun build` runs this at build time and embeds the result as a
 * string (and `bun test` runs it when it loads the server). Bun.build cannot run inside a macro:
 * the bundler's own CLI does the work.
 */
export function pageScript(): string {
  const entry = `${import.meta.dir}/../client/app.ts`;
  const r = Bun.spawnSync([process.execPath, "build", entry, "--target=browser", "--format=iife", "--minify"], { stdout: "pipe", stderr: "pipe", env: { ...process.env, BUN_BE_BUN: "1" } });
  if (r.exitCode !== 0) throw new Error(`bundling ${entry} failed: ${r.stderr.toString()}`);
  return r.stdout.toString();
}

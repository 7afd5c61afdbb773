import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { stringify } from "yaml";
import { git, makeTmpDir } from "./harness.ts";

/**
 * `repo` made a committed project: `files` (path from the root → content), a .gitignore for the
 * sessions, and a config that runs the simulated agents headless with `config`'s top-level keys
 * added (checks:, sim:). Returns `repo`.
 */
export function commitSimProject(repo: string, files: Record<string, string>, config: Record<string, unknown> = {}): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), content);
  }
  writeFileSync(join(repo, ".gitignore"), ".agentmux/.sessions/\n.agentmux/.last_completion.json\n");
  mkdirSync(join(repo, ".agentmux"), { recursive: true });
  writeFileSync(
    join(repo, ".agentmux/config.yaml"),
    stringify({
      version: 2,
      defaults: { provider: "sim", completion: { skip_final_approval: true } },
      github: { pull_request: false, push: false },
      ...config,
    }),
  );
  git(repo, "init", "-q", "-b", "main");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "add", ".");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-q", "-m", "init");
  return repo;
}

/** A committed project whose config runs the simulated agents headless. */
export function simProject(track: { dirs: string[] }, thinkMs = 300, scenario: string[] = []): string {
  const root = makeTmpDir("amx-two-");
  track.dirs.push(root);
  return commitSimProject(join(root, "proj"), { "src/index.js": "export const main = () => 1;\n" }, { sim: { think_ms: thinkMs, scenario } });
}

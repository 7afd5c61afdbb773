import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { git, makeTmpDir } from "./harness.ts";

/** A committed project whose config runs the simulated agents headless. */
export function simProject(track: { dirs: string[] }, thinkMs = 300, scenario: string[] = []): string {
  const root = makeTmpDir("amx-two-");
  track.dirs.push(root);
  const repo = join(root, "proj");
  mkdirSync(join(repo, "src"), { recursive: true });
  writeFileSync(join(repo, "src/index.js"), "export const main = () => 1;\n");
  writeFileSync(join(repo, ".gitignore"), ".agentmux/.sessions/\n.agentmux/.last_completion.json\n");
  mkdirSync(join(repo, ".agentmux"));
  writeFileSync(
    join(repo, ".agentmux/config.yaml"),
    stringify({
      version: 2,
      defaults: { provider: "sim", completion: { skip_final_approval: true } },
      github: { pull_request: false, push: false },
      sim: { think_ms: thinkMs, scenario },
    }),
  );
  git(repo, "init", "-q", "-b", "main");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "add", ".");
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-q", "-m", "init");
  return repo;
}

/**
 * #27.5: the files a CLI reads only from its working folder (agy's `.agents/mcp_config.json`,
 * opencode's `.opencode/plugins/agentmux-*.js`, cursor's `.cursor/hooks.json`) are written into
 * the user's own checkout by an in-place run. They go when the run ends, and when `clean` removes
 * a run whose orchestrator was killed; a file of the user's own at such a path is never touched.
 * Compiled binary; the CLIs are a script that only sleeps (the files are written at launch).
 */
import { expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../helpers/wait.ts";
import { alive, orchestratorPid, sessionDir, spawnBinary } from "../fault/harness.ts";
import { makeRepo } from "../git/fixture.ts";
import { git, makeTmpDir, privateSocket, runBinary } from "./harness.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

const track = binaryScope();

/** An in-place run whose architect and (pre-started) planner are `cli` stand-ins that only sleep. */
async function start(roles: { architect: string; planner: string }, own: Record<string, string> = {}) {
  const root = makeTmpDir("amx-wtfiles-");
  track.dirs.push(root);
  const repo = await makeRepo({ "README.md": "# demo\n" }, root);
  for (const [rel, content] of Object.entries(own)) {
    mkdirSync(join(repo, rel, ".."), { recursive: true });
    writeFileSync(join(repo, rel), content);
  }
  // one stand-in per CLI (the second start of one command waits for its first to get ready)
  const fakes = Object.fromEntries(
    Object.values(roles).map((p) => {
      const fake = join(root, `fake-${p}`);
      // cursor's create-chat prints a chat id (cli-evidence.md §1)
      writeFileSync(fake, `#!/bin/sh\n[ "$1" = --version ] && exit 0\n[ "$1" = create-chat ] && { echo ${CHAT}; exit 0; }\nexec sleep 600\n`);
      chmodSync(fake, 0o755);
      return [p, fake];
    }),
  );
  const config = join(root, "layer.json");
  const providers = Object.fromEntries(Object.values(roles).map((p) => [p, { command: fakes[p] }]));
  writeFileSync(config, JSON.stringify({ roles: { architect: { provider: roles.architect }, planner: { provider: roles.planner } }, providers }));
  const socket = privateSocket();
  track.sockets.push(socket);
  const run = spawnBinary(track.bin, ["run", "--ci", "--json", "--config", config, "Add a greeting module"], { cwd: repo, socket });
  return { repo, socket, run };
}

// the run's own session folder aside
const CHAT = "5b0c7e2a-3d41-4f8e-9a6c-2e7d1f0b4c93";
const status = (repo: string) => git(repo, "status", "--porcelain", "--untracked-files=all", "--", ".", ":!.agentmux");

test("an in-place run's agy and cursor files go when clean removes it after its orchestrator was killed (and cursor's chat is made before its launch)", async () => {
  const { repo, socket, run } = await start({ architect: "agy", planner: "cursor" });
  const mcpConfig = join(repo, ".agents", "mcp_config.json");
  const hooks = join(repo, ".cursor", "hooks.json");
  await waitFor("both CLIs' files in the checkout", () => existsSync(mcpConfig) && existsSync(hooks), { timeoutMs: 60_000 });
  expect(status(repo)).toBe(""); // kept out of git meanwhile
  const dir = sessionDir(repo)!;
  // cursor's conversation: made with create-chat before its launch, continued with --resume (a restart keeps it)
  const log = await waitFor("cursor's launch logged", () => {
    const text = readFileSync(join(dir, "orchestrator.log"), "utf8");
    return text.split("\n").find((l) => l.includes('"event":"agent_prestarted"') && l.includes("fake-cursor")) ? text : null;
  });
  expect(log).toContain(`create-chat made conversation ${CHAT}`);
  const prestarted = log.split("\n").find((l) => l.includes('"event":"agent_prestarted"') && l.includes("fake-cursor"))!;
  expect(JSON.parse(prestarted).data.argv.slice(0, 3)).toEqual([expect.stringMatching(/fake-cursor$/), "--resume", CHAT]);
  const pid = orchestratorPid(dir)!;
  process.kill(pid, "SIGKILL"); // nobody left to remove them at the run's end
  await waitFor("the orchestrator to be gone", () => !alive(pid));
  await run.done;
  expect(existsSync(mcpConfig)).toBe(true);
  const r = await runBinary(track.bin, ["clean", "--force", dir.split("/").pop()!], { cwd: repo, socket });
  expect(r.code).toBe(0);
  for (const gone of [mcpConfig, hooks, join(repo, ".agents"), join(repo, ".cursor")])
    expect({ gone, there: existsSync(gone) }).toEqual({ gone, there: false });
  expect(status(repo)).toBe("");
}, 180_000);

test("an in-place run's opencode plugin and cursor hooks go when the run ends; your own file at agentmux's other plugin path stays", async () => {
  const mine = "// my own opencode plugin\nexport const Mine = async () => ({});\n";
  const { repo, socket, run } = await start({ architect: "opencode", planner: "cursor" }, { ".opencode/plugins/agentmux-session.js": mine });
  const plugin = join(repo, ".opencode", "plugins", "agentmux-turn-end.js");
  const hooks = join(repo, ".cursor", "hooks.json");
  await waitFor("the plugin and the hooks file in the checkout", () => existsSync(plugin) && existsSync(hooks), { timeoutMs: 60_000 });
  expect(status(repo)).toBe("?? .opencode/plugins/agentmux-session.js"); // yours shows; agentmux's are excluded
  // the run is stopped (as Ctrl-C or a CI cancel does): its orchestrator removes them as the run ends
  process.kill(orchestratorPid(sessionDir(repo)!)!, "SIGTERM");
  const out = await run.done;
  expect(out.code).not.toBe(0);
  void socket;
  expect(existsSync(plugin)).toBe(false);
  expect(existsSync(hooks)).toBe(false);
  expect(existsSync(join(repo, ".cursor"))).toBe(false);
  expect(readFileSync(join(repo, ".opencode", "plugins", "agentmux-session.js"), "utf8")).toBe(mine);
}, 180_000);

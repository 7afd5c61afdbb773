import { afterEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import * as nodeFs from "node:fs";
import { join } from "node:path";
import git from "isomorphic-git";
import { editConfigText, writeConfigChecked } from "../../src/onboarding/project-config.ts";
import { git as gitCli, isolatedBinary, runBinary } from "../e2e/harness.ts";
import { BINARY, killTmuxServer, privateSocket, removeDir } from "../helpers/tmp.ts";
import { agentmux, sandbox, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
let socket = "";
afterEach(() => {
  if (socket) killTmuxServer(socket);
  removeDir(sb.root);
});

/** fresh repo → init --defaults → sim everywhere → the runtime files are ignored (and, with the binary, not committed). */
test("newcomer path: init --defaults, configure the simulated agent, session files stay out of git", async () => {
  sb = await sandbox();
  await git.setConfig({ fs: nodeFs, dir: sb.repo, path: "user.name", value: "newcomer" });
  await git.setConfig({ fs: nodeFs, dir: sb.repo, path: "user.email", value: "newcomer@example.invalid" });
  expect(agentmux(sb, ["init", "--defaults"]).code).toBe(0);
  const c = agentmux(sb, ["configure", "--role", "coder", "--provider", "sim"]);
  expect(c.stderr).toBe("");
  const path = join(sb.repo, ".agentmux", "config.yaml");
  const text = editConfigText(readFileSync(path, "utf8"), [
    { path: ["defaults", "provider"], value: "sim" },
    { path: ["defaults", "keep_session"], value: true },
    { path: ["github", "pull_request"], value: false },
    { path: ["github", "push"], value: false },
  ]);
  expect(writeConfigChecked(path, text, sb.env)).toBe(true);
  for (const file of [".agentmux/.sessions/20250101-000000-x/state.json", ".agentmux/.last_completion.json", ".agentmux/.first_run_done"]) {
    expect(await git.isIgnored({ fs: nodeFs, dir: sb.repo, filepath: file })).toBe(true);
  }
  expect(await git.isIgnored({ fs: nodeFs, dir: sb.repo, filepath: ".agentmux/config.yaml" })).toBe(false);
  if (!existsSync(BINARY)) return; // the compiled binary is built by `npm test`; without it the run part is the lead's e2e
  gitCli(sb.repo, "add", "-A");
  gitCli(sb.repo, "commit", "-q", "-m", "Set up agentmux");
  socket = privateSocket();
  const r = await runBinary(isolatedBinary(), ["run", "--ci", "Add a greeting module"], {
    cwd: sb.repo,
    socket,
    env: { HOME: sb.home, XDG_CONFIG_HOME: join(sb.home, ".config") },
  });
  if (r.code !== 0) console.error(r.stdout, r.stderr);
  expect(r.code).toBe(0);
  const sessions = readdirSync(join(sb.repo, ".agentmux", ".sessions"));
  expect(sessions.length).toBe(1); // kept (keep_session), so it was on disk when the commit was made
  // the checkout is back on main (#11.7): the commit is on the run's branch
  const branch = /branch (\S+)\s+commit/.exec(r.stdout)![1]!;
  const committed = gitCli(sb.repo, "show", "--name-only", "--format=", branch).split("\n");
  expect(committed.length).toBeGreaterThan(0);
  expect(committed.filter((f) => f.startsWith(".agentmux/.sessions") || f === ".agentmux/.last_completion.json")).toEqual([]);
  expect(gitCli(sb.repo, "log", "-1", "--format=%s", `${branch}~1`)).toBe("Set up agentmux");
}, 120_000);

import { expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import { waitFor } from "../helpers/wait.ts";
import { procState } from "../helpers/proc.ts";
import { descendants } from "../../src/effects/process/tree.ts";
import { parsePidRecord } from "../../src/session/liveness.ts";
import { PAUSED_PIDS } from "../../src/session/paused-agents.ts";
import { readLog } from "../../src/session/log.ts";
import { git } from "./harness.ts";
import { simProject } from "./sim-project.ts";
import { Screen } from "../tui/tmux-screen.ts";
import { binaryScope } from "../helpers/binary-scope.ts";

/**
 * #31.4: a run paused at its budget stops its agents' CLIs (SIGSTOP). When its orchestrator was
 * killed then, they stayed stopped (state T) until someone ran resume or clean. The pause's
 * guard continues them once the orchestrator is gone.
 */
const scope = binaryScope();

test("a budget pause whose orchestrator is killed: the agents' CLIs are continued", async () => {
  const repo = simProject(scope, 3000);
  const file = join(repo, ".agentmux/config.yaml");
  writeFileSync(file, stringify({ ...parse(readFileSync(file, "utf8")), limits: { max_tokens: 1000 } }));
  git(repo, "-c", "user.name=t", "-c", "user.email=t@t.invalid", "commit", "-qam", "budget");
  const socket = scope.socket();
  const run = new Screen(socket);
  await run.start([scope.bin, "run", "Add alpha"], repo, { width: 120, height: 40 }, { AGENTMUX_TMUX_SOCKET: socket, CI: "", NO_COLOR: "1" });
  await run.until("the monitor says the run is paused", (x) => x.includes("budget reached: agents paused"), 90_000);
  const root = join(repo, ".agentmux/.sessions");
  const dir = join(
    root,
    readdirSync(root).find((n) => !n.startsWith("."))!,
  );
  await waitFor("the pause logged", () => readLog(dir).some((r) => r.event === "agents_paused"), { timeoutMs: 10_000 });
  const pids: number[] = Object.values(JSON.parse(readFileSync(join(dir, "runtime_state.json"), "utf8")).pids as Record<string, number>);
  const below = pids.flatMap((p) => descendants(p));
  expect(below.length).toBeGreaterThan(0);
  await waitFor("the agents' CLIs stopped", () => below.every((p) => procState(p) === "T" || procState(p) === undefined), { timeoutMs: 5000 });
  expect(existsSync(join(dir, PAUSED_PIDS))).toBe(true);

  const orchestrator = parsePidRecord(readFileSync(join(dir, ".runtime/orchestrator.pid"), "utf8"))!.pid;
  process.kill(orchestrator, "SIGKILL");
  await waitFor("the agents' CLIs continued", () => below.every((p) => procState(p) !== "T"), { timeoutMs: 15_000 });
  // the guard continues them first, then drops the list
  await waitFor("the paused list dropped", () => !existsSync(join(dir, PAUSED_PIDS)), { timeoutMs: 15_000 });
}, 180_000);

import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { privateMcpDir, privateSealKeyFile } from "../../src/session/private-dir.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { waitFor } from "../helpers/wait.ts";
import { alive, orchestratorPid } from "../fault/harness.ts";
import { runBinary } from "./harness.ts";
import { startSlowDemo, waitForPhase } from "./lifecycle-harness.ts";

/**
 * #31.1, secrets not left where agents work: the files that hold the agents' tokens are in the run's
 * private folder under the user's home, never in the session folder (inside the project, where
 * agents search), and they go with the run — also when its orchestrator was killed and the session
 * is cleaned. Compiled binary.
 */
const track = binaryScope();

/** The files under `dir` that hold one of `tokens` (a file the live run replaces in between is passed over). */
function holding(dir: string, tokens: string[]): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => {
      try {
        return statSync(f).isFile() && tokens.some((t) => readFileSync(f, "latin1").includes(t));
      } catch {
        return false;
      }
    });
}

test("tokens live in the run's private folder, none in the session folder; a killed run's folder goes with clean", async () => {
  // the reviewer is held at work (sim `hold=`): the run is live, with its agents' configs, until it is killed
  const demo = startSlowDemo(track.bin, { track, thinkMs: 0, extra: ["--scenario", "hold=review_logic_prompt"] });
  const dir = await waitForPhase(demo.repo, "reviewing");
  const priv = privateMcpDir(dir);
  const tokens = await waitFor("the agents' MCP configs", () => {
    const found = existsSync(priv)
      ? readdirSync(priv)
          .filter((n) => n.endsWith(".sim.json"))
          .map((n) => /Bearer ([0-9a-f]{64})/.exec(readFileSync(join(priv, n), "utf8"))?.[1])
          .filter(Boolean)
      : [];
    return found.length >= 2 ? (found as string[]) : null;
  });
  expect(statSync(priv).mode & 0o777).toBe(0o700);
  // the seal key too: in the private folder, nowhere in the session folder
  const key = readFileSync(privateSealKeyFile(dir), "utf8").trim();
  expect(key).toMatch(/^[0-9a-f]{64}$/);
  expect(holding(dir, [...tokens, key])).toEqual([]);
  expect(holding(priv, tokens).length).toBeGreaterThanOrEqual(2); // the search finds them where they are

  const pid = orchestratorPid(dir)!;
  process.kill(pid, "SIGKILL"); // no orchestrator left to remove its private folder
  await waitFor("the orchestrator to be gone", () => !alive(pid));
  await demo.done;
  expect(existsSync(priv)).toBe(true);
  expect(existsSync(privateSealKeyFile(dir))).toBe(true); // kept for a resume
  const r = await runBinary(track.bin, ["clean", "--force", dir.split("/").pop()!], { cwd: demo.repo, socket: demo.socket });
  expect(r.code).toBe(0);
  expect(existsSync(dir)).toBe(false);
  expect(existsSync(priv)).toBe(false);
  expect(existsSync(privateSealKeyFile(dir))).toBe(false);
}, 180_000);

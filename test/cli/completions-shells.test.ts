/**
 * The zsh and fish scripts in the real shells: zsh interactively in a private tmux server
 * (TAB pressed, screen read back), fish through its own `complete -C` query.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { killTmuxServer, makeTmpDir, privateSocket, REPO_ROOT, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";
import { Tmux } from "../../src/effects/tmux/runner.ts";
import { COMPLETION_LINES } from "../../src/onboarding/completions.ts";
import { COMMANDS } from "../../src/cli/commands.ts";
import { zshCompleter } from "../helpers/zsh-complete.ts";

// each test starts real shells (bash, zsh, fish) and the binary: seconds on a loaded machine
setDefaultTimeout(30_000);

const BUN = join(REPO_ROOT, "node_modules", ".bin", "bun");
const MAIN = join(REPO_ROOT, "src", "main.ts");
/** A shell's suite name, saying why it is skipped when the shell is not installed. */
const shellSuite = (shell: string) => (Bun.which(shell) ? shell : `${shell} (skipped: ${shell} is not installed)`);
const VISIBLE = Object.values(COMMANDS)
  .filter((c) => !c.spec.hidden)
  .map((c) => c.spec.name)
  .sort();
const ALPHA = "20250101-100000-alpha";
const SESSIONS = [ALPHA, "20250102-100000-beta"];

/**
 * Each argument completes from its own place (as bash: test/cli/completions), asked of a shell
 * by `ask(line)` → the sorted matches, in the project's src/ (with request.md in it). Options
 * are left out: zsh offers them where no argument is left to complete.
 */
function positionalCases(ask: (line: string) => string[]) {
  const complete = (line: string) => ask(line).filter((w) => !w.startsWith("-"));
  expect(complete("agentmux config ")).toEqual(["migrate"]);
  expect(complete("agentmux config migrate req")).toEqual(["request.md"]);
  expect(complete("agentmux config migrate --write req")).toEqual(["request.md"]);
  expect(complete("agentmux config --config request.md ")).toEqual(["migrate"]); // a flag's value is no argument
  expect(complete("agentmux preferences ")).toEqual(["approve", "list", "reject"]);
  expect(complete("agentmux preferences approve ")).toEqual([]); // proposal ids: free text
  expect(complete("agentmux preferences approve p1 ")).toEqual([]);
  expect(complete(`agentmux status ${ALPHA} `)).toEqual([]); // one session only
  expect(complete(`agentmux clean ${ALPHA} `)).toContain(SESSIONS[1]!); // several
  expect(complete("agentmux completions bash ")).toEqual([]);
  expect(complete("agentmux help st")).toEqual(["status"]);
  expect(complete("agentmux help ")).toEqual(VISIBLE);
  expect(complete("agentmux help status ")).toEqual([]);
}

let root = "";
let deep = "";
let binDir = "";
/** A PATH with `agentmux` (this checkout, from source) first: the documented lines call it. */
const withAgentmux = () => `${binDir}:${process.env.PATH}`;
let socket = "";
const scriptFile = (shell: string) => join(root, `agentmux.${shell}`);

beforeAll(() => {
  root = makeTmpDir("amx-completions-sh-");
  for (const shell of ["zsh", "fish"]) {
    const p = Bun.spawnSync([BUN, MAIN, "completions", shell], { stdout: "pipe", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`completions ${shell}: ${p.stderr}`);
    writeFileSync(scriptFile(shell), p.stdout);
  }
  for (const s of SESSIONS) mkdirSync(join(root, "project", ".agentmux", ".sessions", s), { recursive: true });
  deep = join(root, "project", "src");
  mkdirSync(deep, { recursive: true });
  writeFileSync(join(deep, "request.md"), "# request\n");
  writeFileSync(join(root, "project", ".agentmux", "config.yaml"), "version: 2\nproviders:\n  my-cli:\n    command: my-cli\n");
  binDir = join(root, "bin");
  mkdirSync(binDir);
  writeFileSync(join(binDir, "agentmux"), `#!/bin/sh\nexec '${BUN}' '${MAIN}' "$@"\n`, { mode: 0o755 });
});

afterAll(() => removeDir(root));
afterEach(() => {
  if (socket) killTmuxServer(socket);
  socket = "";
});

describe("bash", () => {
  test("the documented line: completions with agentmux on PATH, silence without", () => {
    const rc = join(root, "bashrc");
    writeFileSync(rc, COMPLETION_LINES.bash.line + "\n");
    const on = Bun.spawnSync(["bash", "--norc", "-c", `source ${rc}; complete -p agentmux`], {
      env: { ...process.env, PATH: withAgentmux() },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(on.stdout.toString()).toBe("complete -F _agentmux agentmux\n");
    const off = Bun.spawnSync(["bash", "--norc", "-c", `source ${rc}; echo "rc=$?"; complete -p agentmux`], {
      env: { ...process.env, PATH: "/usr/bin:/bin" },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(off.stdout.toString()).toBe("rc=1\n"); // the guard is false: nothing loaded, nothing printed
    expect(off.stderr.toString()).toContain("complete: agentmux: no completion specification");
  });
});

describe.skipIf(!Bun.which("zsh"))(shellSuite("zsh"), () => {
  test("zsh -n accepts the script", () => {
    const p = Bun.spawnSync(["zsh", "-n", scriptFile("zsh")], { stderr: "pipe" });
    expect(p.stderr.toString()).toBe("");
    expect(p.exitCode).toBe(0);
  });

  test("each argument completes from its own place; help completes command names", () => {
    const complete = zshCompleter(root, scriptFile("zsh"));
    positionalCases((line) => complete(line, deep));
  });

  test("demo --scenario completes the simulated agent's switch names", () => {
    const complete = zshCompleter(root, scriptFile("zsh"));
    expect(complete("agentmux demo --scenario review_fail", deep)).toEqual(["review_fail_always", "review_fail_once"]);
  });

  test("TAB completes commands, flags and session ids in an interactive zsh", async () => {
    const zdot = join(root, "zdot");
    mkdirSync(zdot, { recursive: true });
    writeFileSync(join(zdot, ".zshrc"), `autoload -Uz compinit && compinit -u -d ${zdot}/.zcompdump\nsource ${scriptFile("zsh")}\nPS1='READY%% '\n`);
    socket = privateSocket();
    const tmux = new Tmux(socket);
    await tmux.run(["new-session", "-d", "-s", "z", "-x", "150", "-y", "40", "-c", deep, `env ZDOTDIR=${zdot} zsh -i`]);
    const screen = () => tmux.run(["capture-pane", "-p", "-J", "-t", "z"]);
    await waitFor("the zsh prompt", async () => (await screen()).includes("READY%"));

    const typeAndTab = async (text: string, expected: string) => {
      await tmux.run(["send-keys", "-t", "z", "C-u"]);
      await tmux.run(["send-keys", "-t", "z", "-l", text]);
      await tmux.run(["send-keys", "-t", "z", "Tab"]);
      await waitFor(`zsh to complete "${text}" to "${expected}"`, async () => (await screen()).includes(expected), { timeoutMs: 5000 });
    };
    await typeAndTab("agentmux sta", "READY% agentmux status ");
    await typeAndTab("agentmux attach 20250102", "READY% agentmux attach 20250102-100000-beta ");
    await typeAndTab("agentmux run --wor", "READY% agentmux run --worktree ");
    await typeAndTab("agentmux completions fi", "READY% agentmux completions fish ");
  }, 20000);

  test("the documented line alone (no compinit before it) completes flags, catalog values and providers", async () => {
    const zdot = join(root, "zdot-line");
    mkdirSync(zdot, { recursive: true });
    writeFileSync(join(zdot, ".zshrc"), `${COMPLETION_LINES.zsh.line}\nPS1='READY%% '\n`);
    socket = privateSocket();
    const tmux = new Tmux(socket);
    await tmux.run(["new-session", "-d", "-s", "z", "-x", "150", "-y", "40", "-c", deep, `env ZDOTDIR=${zdot} PATH=${withAgentmux()} zsh -i`]);
    const screen = () => tmux.run(["capture-pane", "-p", "-J", "-t", "z"]);
    await waitFor("the zsh prompt", async () => (await screen()).includes("READY%"), { timeoutMs: 10000 });
    const typeAndTab = async (text: string, expected: string) => {
      await tmux.run(["send-keys", "-t", "z", "C-u"]);
      await tmux.run(["send-keys", "-t", "z", "-l", text]);
      await tmux.run(["send-keys", "-t", "z", "Tab"]);
      await waitFor(`zsh to complete "${text}" to "${expected}"`, async () => (await screen()).includes(expected), { timeoutMs: 8000 });
    };
    await typeAndTab("agentmux status --wa", "READY% agentmux status --watch ");
    await typeAndTab("agentmux validate --kind execu", "READY% agentmux validate --kind execution_plan ");
    await typeAndTab("agentmux configure --role code-r", "READY% agentmux configure --role code-researcher ");
    await typeAndTab("agentmux configure --provider my-", "READY% agentmux configure --provider my-cli ");
    expect(await screen()).not.toContain("command not found");
  }, 40000);
});

describe.skipIf(!Bun.which("fish"))(shellSuite("fish"), () => {
  function fishComplete(line: string): string[] {
    const cmd = `source ${scriptFile("fish")}; complete -C ${JSON.stringify(line)}`;
    const p = Bun.spawnSync(["fish", "--no-config", "-c", cmd], { cwd: deep, stdout: "pipe", stderr: "pipe" });
    if (p.exitCode !== 0) throw new Error(`fish failed: ${p.stderr}`);
    return p.stdout
      .toString()
      .split("\n")
      .filter(Boolean)
      .map((l) => l.split("\t")[0]!);
  }

  test("fish --no-execute accepts the script", () => {
    expect(Bun.spawnSync(["fish", "--no-execute", scriptFile("fish")]).exitCode).toBe(0);
  });

  test("complete -C gives commands, flags and session ids", () => {
    expect(fishComplete("agentmux sta")).toEqual(["status"]);
    expect(fishComplete("agentmux run --wor")).toEqual(["--worktree"]);
    expect(fishComplete("agentmux resume ").sort()).toEqual(["20250101-100000-alpha", "20250102-100000-beta"]);
    expect(fishComplete("agentmux completions ").sort()).toEqual(["bash", "fish", "zsh"]);
    expect(fishComplete("agentmux --ver")).toEqual(["--version"]);
    expect(fishComplete("agentmux sessions ")).toEqual([]);
    expect(fishComplete("agentmux status --").sort()).toEqual(["--help", "--json", "--log", "--watch"]);
    expect(fishComplete("agentmux configure --role rev").sort()).toEqual(["reviewer_expert", "reviewer_logic", "reviewer_quality"]);
    expect(fishComplete("agentmux validate --kind execu")).toEqual(["execution_plan"]);
  });

  test("each argument completes from its own place; help completes command names", () => {
    positionalCases((line) => fishComplete(line).sort());
  });

  test("demo --scenario completes the simulated agent's switch names", () => {
    expect(fishComplete("agentmux demo --scenario review_fail").sort()).toEqual(["review_fail_always", "review_fail_once"]);
  });

  test("the documented line in config.fish loads the completions (and providers come from the project)", () => {
    const xdg = join(root, "xdg");
    mkdirSync(join(xdg, "fish"), { recursive: true });
    writeFileSync(join(xdg, "fish", "config.fish"), COMPLETION_LINES.fish.line + "\n");
    const p = Bun.spawnSync(["fish", "-c", `complete -C "agentmux configure --provider my-"; complete -C "agentmux sta"`], {
      cwd: deep,
      env: { ...process.env, XDG_CONFIG_HOME: xdg, PATH: withAgentmux() },
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(p.stderr.toString()).toBe("");
    expect(
      p.stdout
        .toString()
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("\t")[0]),
    ).toEqual(["my-cli", "status"]);
  });
});

/**
 * Opt-in: a WHOLE headless pipeline per real CLI — `agentmux run --ci` (the compiled binary)
 * with claude, codex or gemini in every role, against the scripted mock model: the architect,
 * planner, coder and reviewer each write their files through the CLI's own file tool and call
 * their submit tool; the coder forgets its submit once (agentmux reminds it) and the architect
 * first asks a question (an unattended run tells it to decide); agentmux commits.
 *
 *   sudo REAL_CLI_PREFIX=/work/real-cli bash scripts/real-cli-as-user.sh test/real-cli/pipeline.test.ts
 */
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { F } from "../../src/protocol/paths.ts";
import { readToolLines } from "../../src/bus/tool-lines.ts";
import { isolatedBinary, killTmuxServer, makeDirToKeep, privateSocket, removeDir } from "../helpers/tmp.ts";
import { availability, ENABLED } from "./available.ts";
import { CLIS, writeSetupFiles } from "./clis.ts";
import { startMockServer, type MockServer } from "./mock-server.ts";

const REQUEST = "Add a greeting module";

function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, stdout: "pipe", stderr: "pipe", env: { PATH: process.env.PATH ?? "", HOME: cwd, GIT_CONFIG_GLOBAL: "/dev/null" } });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.toString().trim();
}

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.reverse()) c();
  cleanup = [];
});

/** The orchestrator log's messages (JSON lines: ts, msg, …), as "<time> <msg>". */
function messages(log: string): string[] {
  return log.split("\n").filter((l) => l.startsWith("{")).map((l) => {
    const r = JSON.parse(l) as { ts: string; msg: string };
    return `${r.ts.slice(11, 23)} ${r.msg}`;
  });
}


async function recordScreens(socket: string, file: string, on: () => boolean): Promise<void> {
  const last = new Map<string, string>();
  const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "ignore", env: { PATH: process.env.PATH ?? "", TMUX: "" } }).stdout.toString();
  while (on()) {
    for (const line of tmux("list-panes", "-a", "-F", "#{pane_id}\t#{pane_title}").split("\n").filter(Boolean)) {
      const [pane, title] = line.split("\t");
      const screen = tmux("capture-pane", "-p", "-J", "-t", pane!).split("\n").map((l) => l.trimEnd()).filter(Boolean).join("\n");
      if (last.get(pane!) === screen) continue;
      last.set(pane!, screen);
      appendFileSync(file, `=== ${new Date().toISOString()} ${pane} ${title}\n${screen}\n`);
    }
    await Bun.sleep(200);
  }
}

for (const cli of CLIS) {
  const { bin, why } = availability(cli);
  if (why && ENABLED) console.log(`[real-cli] ${cli.name}: pipeline skipped: ${why}`);

  describe.skipIf(!bin)(`real ${cli.name} pipeline`, () => {
    test(`${cli.name}: architect → planner → coder → reviewer → commit, headless, with a question and a forgotten submit (#12.8)`, async () => {
      const base = process.env.REAL_CLI_RUNS || join(homedir(), ".cache", "agentmux-real-cli", "runs");
      mkdirSync(base, { recursive: true, mode: 0o700 });
      const keep = !!process.env.AGENTMUX_REAL_CLI_KEEP;
      const root = makeDirToKeep(`pipeline-${cli.name}-`, base, keep);
      const repo = join(root, "repo");
      const home = join(root, "home");
      mkdirSync(repo);
      mkdirSync(home);
      writeFileSync(join(repo, "README.md"), "# demo\n\nA tiny project the real-CLI suite works in.\n");
      writeFileSync(join(repo, "package.json"), JSON.stringify({ name: "demo", type: "module", private: true }, null, 2) + "\n");
      git(repo, "init", "-q", "-b", "main");
      git(repo, "config", "user.name", "Real CLI");
      git(repo, "config", "user.email", "real-cli@example.com");
      git(repo, "add", ".");
      git(repo, "commit", "-q", "-m", "init");

      const mock: MockServer = startMockServer(join(root, "mock-requests.jsonl"), { work: true, forgetSubmitOf: /coder_prompt_\d+\.md$/, askOf: /architect_prompt\.md$/ });
      const socket = privateSocket();
      cleanup.push(() => {
        killTmuxServer(socket);
        mock.stop();
        if (!keep) removeDir(root);
        else console.log(`kept ${root}`);
      });
      const setup = cli.setup({ home, repo, mockUrl: mock.url });
      writeSetupFiles(setup);
      const layer = join(root, "real-cli.config.json");
      writeFileSync(layer, JSON.stringify({ defaults: { provider: cli.name }, providers: { [cli.name]: { command: bin, env: setup.env } }, watchdog: { nudge_backoff_s: 1 } }, null, 2));

      // AGENTMUX_REAL_CLI_KEEP: every pane's screen as it changes, for a look afterwards
      let watching = keep;
      if (keep) void recordScreens(socket, join(root, "screens.txt"), () => watching);
      cleanup.push(() => void (watching = false));
      const t0 = performance.now();
      const p = Bun.spawn([isolatedBinary(), "run", "--ci", "--json", "--keep-session", "--config", layer, REQUEST], {
        cwd: repo,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
        env: { PATH: process.env.PATH ?? "", HOME: home, USER: process.env.USER ?? "", LANG: process.env.LANG ?? "C.UTF-8", TERM: "xterm-256color", CI: "true", AGENTMUX_TMUX_SOCKET: socket, TMUX: "", NO_COLOR: "1" },
      });
      const timer = setTimeout(() => p.kill("SIGTERM"), 1_500_000);
      const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
      clearTimeout(timer);
      const wallMs = Math.round(performance.now() - t0);

      const sessions = join(repo, ".agentmux", ".sessions");
      const dir = existsSync(sessions) ? join(sessions, readdirSync(sessions).find((d) => d.includes("greeting")) ?? "") : "";
      const log = dir && existsSync(join(dir, "orchestrator.log")) ? messages(readFileSync(join(dir, "orchestrator.log"), "utf8")).join("\n") : "(no orchestrator.log)";
      const why = `exit ${code}\n--- stdout ---\n${stdout.slice(-4000)}\n--- stderr ---\n${stderr.slice(-2000)}\n--- orchestrator.log ---\n${log.slice(-8000)}`;
      expect(code, why).toBe(0);

      const events = stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => JSON.parse(l) as { kind: string; phase?: string; branch?: string });
      const phases = events.filter((e) => e.kind === "phase").map((e) => e.phase);
      expect(phases.slice(0, 4), why).toEqual(["architecting", "planning", "implementing", "reviewing"]);
      // every role's submit reached agentmux through the CLI's MCP wiring
      const tools = readToolLines(join(dir, F.toolEvents), 0).map((l) => String(l.value?.tool));
      for (const t of ["submit_architecture", "submit_plan", "submit_done", "submit_review"]) expect(tools, why).toContain(t);
      // the files were written by the CLI's own tools (the mock model only asked for them)
      const branch = events.findLast((e) => e.branch)?.branch ?? git(repo, "branch", "--show-current");
      const files = git(repo, "show", "--name-only", "--format=", branch).split("\n");
      expect(files, why).toEqual(expect.arrayContaining(["src/greeting.js", "test/greeting.test.js"]));
      expect(git(repo, "show", `${branch}:src/greeting.js`)).toContain("Hello, ${name}!");
      // the question was answered by policy; the forgotten submit was reminded by name
      expect(log, why).toContain("answered by policy");
      expect(log, why).toMatch(/coder\S* ended its turn without calling submit_done: reminder 1\//);
      expect(mock.requests.some((r) => r.turn && r.lastUserText.includes("Your task is not complete until you call"))).toBe(true);

      console.log(`[real-cli] ${cli.name} pipeline: wall ${wallMs} ms, exit ${code}, ${mock.requests.filter((r) => r.turn).length} model turns\n  ${log.split("\n").filter((l) => /delivered to|reminder \d\/\d accepted|turn ended|launched |answered by policy|ended its turn without/.test(l)).map((l) => l.replace(/ in %\d+: .*/, "").slice(0, 200)).join("\n  ")}`);
    }, 1_600_000);
  });
}

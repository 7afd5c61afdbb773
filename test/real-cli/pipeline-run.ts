/**
 * One whole headless pipeline through the compiled binary (`agentmux run --ci`) with real CLIs
 * against the scripted mock model, and what it shows: the exit, the phases, the tool calls, the
 * commit, the reminders agentmux sent and each role's handoff (from the event that called for
 * the agent to its first prompt accepted, from orchestrator.log and tool_events.jsonl).
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { F } from "../../src/protocol/paths.ts";
import { readToolLines } from "../../src/bus/tool-lines.ts";
import { isolatedBinary, killTmuxServer, makeDirToKeep, privateSocket, removeDir } from "../helpers/tmp.ts";
import { writeSetupFiles, type CliDef } from "./clis.ts";
import { startMockServer, type MockServer } from "./mock-server.ts";
import type { MockBehaviour } from "./mock-turns.ts";

export const REQUEST = "Add a greeting module";

/** the CLI each role runs on: `default` for every role not named */
export type Team = { default: { cli: CliDef; bin: string }; roles?: Record<string, { cli: CliDef; bin: string }> };

/** `start`: how its pane started: a pre-start ready for its prompt, one not ready yet, or started at the handoff (cold) */
export type Handoff = { agent: string; after: string; ms: number; start: "ready" | "not ready" | "cold" };

export type PipelineResult = {
  code: number | null;
  wallMs: number;
  stdout: string;
  events: { kind: string; phase?: string; branch?: string }[];
  sessionDir: string;
  /** "<time> <msg>" per orchestrator.log line */
  log: string;
  tools: string[];
  mock: MockServer;
  repo: string;
  /** reminders agentmux sent (its log's "reminder n/m" lines) and the reminder prompts the model saw */
  reminders: { logged: number; seen: number };
  /** turn ends the watcher reported, by what said so: the CLI's own signal (hook, notify, plugin) or the screen rule */
  turnEnds: { byCli: number; byScreen: number; signals: number };
  handoffs: Handoff[];
  why: string;
};

export function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: cwd, GIT_CONFIG_GLOBAL: "/dev/null" },
  });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr}`);
  return r.stdout.toString().trim();
}

type LogLine = { ts: string; msg: string; agent?: string; pane?: string; event?: string; data?: Record<string, unknown> };
const logLines = (text: string): LogLine[] =>
  text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as LogLine);

/**
 * Per launch (pane), its first prompt accepted minus the event that called for it: the latest
 * submit tool call before that delivery, or the run's start for the first agent. A key launched
 * again is named by what it is: the coder after a review's submit is the fixer, any other `<key> #n`.
 */
export function handoffs(log: LogLine[], tools: { tool: string; at: number }[]): Handoff[] {
  const start = log.length ? Date.parse(log[0]!.ts) : 0;
  const paneOf = new Map<string, string>();
  const startOf = new Map<string, Handoff["start"]>();
  const launches = new Map<string, number>();
  const seen = new Set<string>();
  const out: Handoff[] = [];
  for (const l of log) {
    if (l.agent && l.pane && /^(launched|pre-started) /.test(l.msg)) paneOf.set(l.pane, l.agent);
    if (l.event === "agent_launched" && l.pane)
      startOf.set(l.pane, l.data?.prestarted_ms === undefined ? "cold" : typeof l.data.prestart_ready_ms === "number" ? "ready" : "not ready");
    if (!l.msg.startsWith("delivered to ") || !l.pane) continue;
    const agent = paneOf.get(l.pane);
    if (!agent || seen.has(l.pane)) continue;
    seen.add(l.pane);
    const n = (launches.get(agent) ?? 0) + 1;
    launches.set(agent, n);
    const at = Date.parse(l.ts);
    const cause = tools.filter((t) => t.at <= at && /^submit_/.test(t.tool)).at(-1);
    const name = n === 1 ? agent : agent === "coder" && cause?.tool === "submit_review" ? "fixer" : `${agent} #${n}`;
    out.push({ agent: name, after: cause ? cause.tool : "run start", ms: at - (cause ? cause.at : start), start: startOf.get(l.pane) ?? "cold" });
  }
  return out;
}

/** `sandbox`: every agent runs in bubblewrap (the config's top-level `sandbox: true`) */
export async function runPipeline(
  team: Team,
  behaviour: MockBehaviour,
  label: string,
  timeoutMs: number,
  o: { sandbox?: boolean } = {},
): Promise<PipelineResult & { cleanup(): void }> {
  const base = process.env.REAL_CLI_RUNS || join(homedir(), ".cache", "agentmux-real-cli", "runs");
  mkdirSync(base, { recursive: true, mode: 0o700 });
  const keep = !!process.env.AGENTMUX_REAL_CLI_KEEP;
  const root = makeDirToKeep(`pipeline-${label}-`, base, keep);
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

  const mock = startMockServer(join(root, "mock-requests.jsonl"), behaviour);
  const socket = privateSocket();
  let watching = keep;
  const cleanup = () => {
    watching = false;
    killTmuxServer(socket);
    mock.stop();
    if (!keep) removeDir(root);
    else console.log(`kept ${root}`);
  };
  // every CLI of the team: its user files in the one home, its env on its provider
  const used = [team.default, ...Object.values(team.roles ?? {})];
  const providers: Record<string, unknown> = {};
  for (const u of used) {
    const setup = u.cli.setup({ home, repo, mockUrl: mock.url });
    writeSetupFiles(setup);
    providers[u.cli.name] = { command: u.bin, env: setup.env };
  }
  const roles = Object.fromEntries(Object.entries(team.roles ?? {}).map(([role, u]) => [role, { provider: u.cli.name }]));
  const layer = join(root, "real-cli.config.json");
  writeFileSync(
    layer,
    JSON.stringify(
      { defaults: { provider: team.default.cli.name }, roles, providers, watchdog: { nudge_backoff_s: 1 }, ...(o.sandbox ? { sandbox: true } : {}) },
      null,
      2,
    ),
  );

  if (keep) void recordScreens(socket, join(root, "screens.txt"), () => watching);
  const t0 = performance.now();
  const p = Bun.spawn([isolatedBinary(), "run", "--ci", "--json", "--keep-session", "--config", layer, REQUEST], {
    cwd: repo,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: home,
      USER: process.env.USER ?? "",
      LANG: process.env.LANG ?? "C.UTF-8",
      TERM: "xterm-256color",
      CI: "true",
      AGENTMUX_TMUX_SOCKET: socket,
      TMUX: "",
      NO_COLOR: "1",
    },
  });
  const timer = setTimeout(() => p.kill("SIGTERM"), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  const wallMs = Math.round(performance.now() - t0);

  const sessions = join(repo, ".agentmux", ".sessions");
  const sessionDir = existsSync(sessions) ? join(sessions, readdirSync(sessions).find((d) => d.includes("greeting")) ?? readdirSync(sessions)[0] ?? "") : "";
  const raw = sessionDir && existsSync(join(sessionDir, "orchestrator.log")) ? logLines(readFileSync(join(sessionDir, "orchestrator.log"), "utf8")) : [];
  const log = raw.length ? raw.map((r) => `${r.ts.slice(11, 23)} ${r.msg}`).join("\n") : "(no orchestrator.log)";
  const toolLines = sessionDir && existsSync(join(sessionDir, F.toolEvents)) ? readToolLines(join(sessionDir, F.toolEvents), 0) : [];
  const tools = toolLines.map((l) => String(l.value?.tool));
  const timed = toolLines.map((l) => ({ tool: String(l.value?.tool), at: Date.parse(l.value?.timestamp ?? "") }));
  const events = stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as PipelineResult["events"][number]);
  const reminders = {
    logged: raw.filter((r) => /ended its turn without calling \S+: reminder \d+\//.test(r.msg)).length,
    seen: mock.requests.filter((r) => r.turn && r.lastUserText.includes("Your task is not complete until you call")).length,
  };
  const ended = raw.filter((r) => r.event === "watchdog" && / turn ended \(/.test(r.msg));
  const turnEnds = {
    byCli: ended.filter((r) => r.msg.includes("(its CLI said so)")).length,
    byScreen: ended.filter((r) => r.msg.includes("(screen settled")).length,
    signals: 0,
  };
  // every signal the CLIs' hooks wrote, also of turns the watcher no longer followed (an agent closed on its submit)
  const signalFile = sessionDir ? join(sessionDir, F.turnEnds) : "";
  if (signalFile && existsSync(signalFile)) turnEnds.signals = readFileSync(signalFile, "utf8").split("\n").filter(Boolean).length;
  const why = `exit ${code} after ${wallMs} ms\n--- stdout ---\n${stdout.slice(-4000)}\n--- stderr ---\n${stderr.slice(-2000)}\n--- orchestrator.log ---\n${log.slice(-8000)}`;
  return { code, wallMs, stdout, events, sessionDir, log, tools, mock, repo, reminders, turnEnds, handoffs: handoffs(raw, timed), why, cleanup };
}

/** A one-line summary for the suite's output (and docs/providers.md). */
export function summary(label: string, r: PipelineResult): string {
  const h = r.handoffs.map((x) => `${x.agent} ${(x.ms / 1000).toFixed(1)} s after ${x.after} (${x.start})`).join("; ");
  return `[real-cli] ${label}: exit ${r.code}, wall ${(r.wallMs / 1000).toFixed(0)} s, ${r.mock.requests.filter((q) => q.turn).length} model turns, reminders ${r.reminders.logged} (model saw ${r.reminders.seen}); turn ends: ${r.turnEnds.byCli} by the CLI's signal, ${r.turnEnds.byScreen} by the screen, ${r.turnEnds.signals} signals written; handoffs: ${h}`;
}

async function recordScreens(socket: string, file: string, on: () => boolean): Promise<void> {
  const last = new Map<string, string>();
  const tmux = (...args: string[]) =>
    Bun.spawnSync(["tmux", "-L", socket, ...args], { stdout: "pipe", stderr: "ignore", env: { PATH: process.env.PATH ?? "", TMUX: "" } }).stdout.toString();
  while (on()) {
    for (const line of tmux("list-panes", "-a", "-F", "#{pane_id}\t#{pane_title}").split("\n").filter(Boolean)) {
      const [pane, title] = line.split("\t");
      const screen = tmux("capture-pane", "-p", "-J", "-t", pane!)
        .split("\n")
        .map((l) => l.trimEnd())
        .filter(Boolean)
        .join("\n");
      if (last.get(pane!) === screen) continue;
      last.set(pane!, screen);
      appendFileSync(file, `=== ${new Date().toISOString()} ${pane} ${title}\n${screen}\n`);
    }
    await Bun.sleep(200);
  }
}

/**
 * Turn ends from the CLI itself (#27): claude's Stop hook (a settings file added with
 * --settings for this launch only), copilot's agentStop hook (a plugin added with --plugin-dir
 * for this launch only) and codex's notify program (-c notify=[…]) run agentmux's
 * turn-end command, which appends the launch's turn-end id, read from the env the hook inherits,
 * to the run's file; the TurnEndTail hands the id on. The hooks are run here exactly as the CLIs
 * run them (claude: the command through sh; codex: the argv with the event's JSON appended).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { privateMcpDir } from "../../src/providers/mcp.ts";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TurnEndTail } from "../../src/bus/turn-ends.ts";
import { loadConfig } from "../../src/config/load.ts";
import { buildLaunch, writeLaunchFiles, type LaunchSpec } from "../../src/providers/launch.ts";
import { makeRepo } from "../git/fixture.ts";
import { adapterFor } from "../../src/providers/adapters/registry.ts";
import { UsageReader } from "../../src/providers/usage/read.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import type { Config } from "../../src/schema/config.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

let root: string;
let base: Config;
beforeAll(() => {
  root = makeTmpDir("amx-turn-hooks-");
  base = loadConfig({ projectDir: root, env: { HOME: root } }).config;
});
afterAll(() => removeDir(root));

const ID = "0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0";

function launch(provider: string, o: { turnEnd?: boolean; batch?: boolean; workDir?: string } = {}): LaunchSpec {
  const config = structuredClone(base);
  config.defaults.provider = provider;
  const sessionDir = join(root, "s");
  return buildLaunch(resolveRole(config, "coder"), {
    sessionDir,
    projectDir: root,
    workDir: o.workDir ?? root,
    agentKey: "coder-1",
    selfCommand: ["/opt/agentmux"],
    home: root,
    mcp: { url: "http://127.0.0.1:1/mcp", token: "ab".repeat(32) },
    ...(o.turnEnd === false ? {} : { turnEnd: { id: ID, file: join(root, "turn_ends") } }),
    ...(o.batch ? { batchPrompt: join(sessionDir, "p.md") } : {}),
  });
}

function config0(provider: string): Config {
  const config = structuredClone(base);
  config.defaults.provider = provider;
  return config;
}

/** Run `argv` with the launch's env (as the pane gives it to the CLI, which passes it to its hooks). */
function run(argv: string[], spec: LaunchSpec): void {
  const r = Bun.spawnSync(argv, { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...spec.env }, stdout: "pipe", stderr: "pipe" });
  expect({ code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() }).toEqual({ code: 0, stdout: "", stderr: "" });
}

describe("the CLIs' own turn-end signals", () => {
  test("claude: a Stop hook in a settings file of this launch (--settings), never the user's settings", async () => {
    const spec = launch("claude");
    const i = spec.argv.indexOf("--settings");
    expect(i).toBeGreaterThan(0);
    const file = spec.argv[i + 1]!;
    expect(file).toBe(join(privateMcpDir(join(root, "s"), root), "coder-1.claude-settings.json"));
    const settings = JSON.parse(spec.files.find((f) => f.path === file)!.content);
    const hooks = settings.hooks.Stop[0].hooks;
    expect(hooks).toEqual([{ type: "command", command: expect.any(String), timeout: 10 }]);
    // the file holds no id and no secret: the same for every launch
    expect(JSON.stringify(settings)).not.toContain(ID);
    expect(spec.env).toMatchObject({ AGENTMUX_TURN_ID: ID, AGENTMUX_TURN_ENDS: join(root, "turn_ends") });

    const seen: string[] = [];
    const tail = new TurnEndTail(join(root, "turn_ends"), (id) => seen.push(id));
    tail.start();
    try {
      run(["sh", "-c", hooks[0].command], spec); // claude runs a hook command through the shell
      await waitFor("the id read back", () => seen.length === 1, { timeoutMs: 5_000 });
      expect(seen).toEqual([ID]);
    } finally {
      tail.stop();
    }
  });

  test("codex: its notify program, given the event's JSON as its last argument", async () => {
    const spec = launch("codex");
    const notify = spec.argv.find((a) => a.startsWith("notify="))!;
    expect(spec.argv[spec.argv.indexOf(notify) - 1]).toBe("-c");
    const argv = JSON.parse(notify.slice("notify=".length)) as string[]; // a TOML array of strings is JSON
    expect(argv.slice(0, 2)).toEqual(["sh", "-c"]);
    const seen: string[] = [];
    const tail = new TurnEndTail(join(root, "turn_ends"), (id) => seen.push(id));
    tail.start();
    try {
      run([...argv, JSON.stringify({ type: "agent-turn-complete", "turn-id": "1", "last-assistant-message": "done; it's $(not run)" })], spec);
      await waitFor("the id read back", () => seen.length === 1, { timeoutMs: 5_000 });
      expect(seen).toEqual([ID]);
      expect(readFileSync(join(root, "turn_ends"), "utf8").trim().split("\n").at(-1)).toBe(ID);
    } finally {
      tail.stop();
    }
  });

  test("opencode: a plugin in the worktree's .opencode/plugins/ (stable, kept out of git) hears session.idle", async () => {
    const repo = await makeRepo();
    const spec = launch("opencode", { workDir: repo });
    const plugin = spec.files.find((f) => f.path === join(repo, ".opencode", "plugins", "agentmux-turn-end.js"))!;
    expect(plugin.content).not.toContain(ID);
    writeLaunchFiles(spec);
    expect(Bun.spawnSync(["git", "-C", repo, "status", "--porcelain", "--untracked-files=all"]).stdout.toString()).toBe("");
    // the plugin as opencode loads it, in a process with the pane's env
    const script = `const m = await import(${JSON.stringify(plugin.path)}); const hooks = await m.AgentmuxTurnEnd({}); await hooks.event({ event: { type: "session.updated" } }); await hooks.event({ event: { type: "session.idle", properties: {} } });`;
    const seen: string[] = [];
    const tail = new TurnEndTail(join(root, "turn_ends"), (id) => seen.push(id));
    tail.start();
    try {
      run([process.execPath, "-e", script], spec);
      await waitFor("the id read back", () => seen.length === 1, { timeoutMs: 5_000 });
      expect(seen).toEqual([ID]);
      // without agentmux's env (the user's own opencode in that folder) it does nothing
      run([process.execPath, "-e", script], { ...spec, env: {} });
      await Bun.sleep(300);
      expect(seen).toEqual([ID]);
    } finally {
      tail.stop();
    }
  });

  // opencode picks its own ses_ id; without it a restarted opencode agent started a fresh conversation (#27.5)
  test("opencode: a second plugin writes the top-level session opencode opened to the launch's file; agentmux reads it and resumes it with --session", async () => {
    const repo = await makeRepo();
    const spec = launch("opencode", { workDir: repo });
    const plugin = spec.files.find((f) => f.path === join(repo, ".opencode", "plugins", "agentmux-session.js"))!;
    const file = spec.env.AGENTMUX_CONVERSATION_FILE!;
    expect(file).toBe(join(privateMcpDir(join(root, "s"), root), "coder-1.opencode-session.json"));
    expect(plugin.content).not.toContain(file);
    writeLaunchFiles(spec);
    expect(Bun.spawnSync(["git", "-C", repo, "status", "--porcelain", "--untracked-files=all"]).stdout.toString()).toBe("");
    const adapter = adapterFor("opencode")!;
    expect(adapter.captureConversation!({ env: spec.env, sinceMs: 0, promptLine: "" })).toBeNull();
    // the plugin as opencode loads it, in a process with the pane's env: a sub-agent's session (parentID) is not the agent's
    const event = (info: object) => JSON.stringify({ type: "session.created", properties: { info } });
    const script = `const m = await import(${JSON.stringify(plugin.path)}); const hooks = await m.AgentmuxSession({}); await hooks.event({ event: { type: "session.idle", properties: { sessionID: "ses_idle" } } }); await hooks.event({ event: ${event({ id: "ses_2b7f0c1aA9" })} }); await hooks.event({ event: ${event({ id: "ses_child", parentID: "ses_2b7f0c1aA9" })} });`;
    run([process.execPath, "-e", script], spec);
    expect(adapter.captureConversation!({ env: spec.env, sinceMs: 0, promptLine: "" })).toBe("ses_2b7f0c1aA9");
    // without agentmux's env (the user's own opencode in that folder) it writes nothing
    run([process.execPath, "-e", script.replace("ses_2b7f0c1aA9", "ses_other")], { ...spec, env: {} });
    expect(adapter.captureConversation!({ env: spec.env, sinceMs: 0, promptLine: "" })).toBe("ses_2b7f0c1aA9");
    // its assistant messages' token figures (opencode's published message info), per session, the last update per message counting
    const records = spec.env.AGENTMUX_OPENCODE_RECORDS!;
    expect(records).toBe(join(root, "s", ".runtime", "opencode"));
    const msg = (id: string, sessionID: string, tokens: object) =>
      JSON.stringify({ type: "message.updated", properties: { info: { id, sessionID, role: "assistant", modelID: "mock-model", tokens } } });
    const zero = { input: 0, output: 0, reasoning: 0, cache: { read: 0, write: 0 } };
    const usageScript = `const m = await import(${JSON.stringify(plugin.path)}); const hooks = await m.AgentmuxSession({}); for (const e of [${[
      msg("msg_1", "ses_2b7f0c1aA9", zero),
      msg("msg_1", "ses_2b7f0c1aA9", { input: 1200, output: 300, reasoning: 40, cache: { read: 800, write: 100 } }),
      msg("msg_2", "ses_2b7f0c1aA9", { input: 50, output: 20, reasoning: 0, cache: { read: 2000, write: 0 } }),
      msg("msg_3", "ses_child", { input: 9999, output: 9999, reasoning: 0, cache: { read: 0, write: 0 } }),
      JSON.stringify({ type: "message.updated", properties: { info: { id: "msg_u", sessionID: "ses_2b7f0c1aA9", role: "user" } } }),
    ].join(", ")}]) await hooks.event({ event: e });`;
    run([process.execPath, "-e", usageScript], spec);
    const provider = config0("opencode").providers.opencode!;
    expect(provider.usage).toEqual([{ format: "opencode", home: "{session}/.runtime/opencode" }]);
    const read = new UsageReader().read("ses_2b7f0c1aA9", provider.usage, { sessionDir: join(root, "s"), env: {} });
    expect(read).toMatchObject({ input: 1250, cached: 2800, cache_write: 100, output: 360, model: "mock-model", source: "opencode" });
    expect(new UsageReader().read("ses_nothing", provider.usage, { sessionDir: join(root, "s"), env: {} })).toBeNull();
    // the next launch continues it
    const config = config0("opencode");
    const resumed = buildLaunch(resolveRole(config, "coder"), {
      sessionDir: join(root, "s"),
      projectDir: root,
      workDir: repo,
      agentKey: "coder-1",
      selfCommand: ["/opt/agentmux"],
      home: root,
      conversation: { id: "ses_2b7f0c1aA9", resume: true },
    });
    expect(resumed.argv.slice(1, 3)).toEqual(["--session", "ses_2b7f0c1aA9"]);
  });

  test("cursor: a stop hook in the worktree's .cursor/hooks.json, run through its shell", async () => {
    const repo = await makeRepo();
    const spec = launch("cursor", { workDir: repo });
    const hooks = JSON.parse(spec.files.find((f) => f.path === join(repo, ".cursor", "hooks.json"))!.content);
    expect(hooks.version).toBe(1);
    const seen: string[] = [];
    const tail = new TurnEndTail(join(root, "turn_ends"), (id) => seen.push(id));
    tail.start();
    try {
      run(["sh", "-c", hooks.hooks.stop[0].command], spec);
      await waitFor("the id read back", () => seen.length === 1, { timeoutMs: 5_000 });
      expect(seen).toEqual([ID]);
    } finally {
      tail.stop();
    }
  });

  test("qwen: a Stop hook in its private settings file (QWEN_CODE_SYSTEM_DEFAULTS_PATH), run through the shell", async () => {
    const spec = launch("qwen");
    const settings = JSON.parse(spec.files.find((f) => f.path === spec.env.QWEN_CODE_SYSTEM_DEFAULTS_PATH)!.content);
    const hooks = settings.hooks.Stop[0].hooks;
    expect(hooks).toEqual([{ type: "command", command: expect.any(String) }]);
    expect(JSON.stringify(settings.hooks)).not.toContain(ID);
    // without a turn-end id (doctor's picture, a batch run) there is no hook
    expect(JSON.parse(launch("qwen", { turnEnd: false }).files[0]!.content).hooks).toBeUndefined();
    const seen: string[] = [];
    const tail = new TurnEndTail(join(root, "turn_ends"), (id) => seen.push(id));
    tail.start();
    try {
      run(["sh", "-c", hooks[0].command], spec);
      await waitFor("the id read back", () => seen.length === 1, { timeoutMs: 5_000 });
      expect(seen).toEqual([ID]);
    } finally {
      tail.stop();
    }
  });

  test("gemini: an AfterAgent hook in its private home's settings, its id and file on the hook's own env (gemini sanitizes a hook's environment), your own hooks kept", async () => {
    // the user's own gemini settings, with an AfterAgent hook of theirs
    const userHome = join(root, "gemini-user");
    mkdirSync(join(userHome, ".gemini"), { recursive: true });
    const theirs = { hooks: [{ type: "command", command: "echo '{}'" }] };
    writeFileSync(join(userHome, ".gemini", "settings.json"), JSON.stringify({ hooks: { AfterAgent: [theirs], BeforeTool: [theirs] } }));
    const config = config0("gemini");
    config.providers.gemini!.env = { ...config.providers.gemini!.env, GEMINI_CLI_HOME: userHome };
    const ctx = {
      sessionDir: join(root, "s"),
      projectDir: root,
      workDir: root,
      agentKey: "coder-1",
      selfCommand: ["/opt/agentmux"],
      home: root,
      mcp: { url: "http://127.0.0.1:1/mcp", token: "ab".repeat(32) },
    };
    const spec = buildLaunch(resolveRole(config, "coder"), { ...ctx, turnEnd: { id: ID, file: join(root, "turn_ends") } });
    const settingsFile = join(spec.env.GEMINI_CLI_HOME!, ".gemini", "settings.json");
    const settings = JSON.parse(spec.files.find((f) => f.path === settingsFile)!.content);
    expect(settings.hooks.BeforeTool).toEqual([theirs]);
    expect(settings.hooks.AfterAgent[0]).toEqual(theirs);
    const ours = settings.hooks.AfterAgent[1].hooks;
    expect(ours).toEqual([
      {
        type: "command",
        name: "agentmux-turn-end",
        command: expect.any(String),
        env: { AGENTMUX_TURN_ID: ID, AGENTMUX_TURN_ENDS: join(root, "turn_ends") },
        timeout: 10_000,
      },
    ]);
    // the user's file is untouched
    expect(JSON.parse(readFileSync(join(userHome, ".gemini", "settings.json"), "utf8")).hooks.AfterAgent).toEqual([theirs]);
    // no hook in a batch run or without a turn-end id
    for (const other of [
      buildLaunch(resolveRole(config, "coder"), ctx),
      buildLaunch(resolveRole(config, "coder"), { ...ctx, turnEnd: { id: ID, file: join(root, "turn_ends") }, batchPrompt: join(root, "s", "p.md") }),
    ]) {
      const s = JSON.parse(other.files.find((f) => f.path.endsWith(join(".gemini", "settings.json")))!.content);
      expect(s.hooks.AfterAgent).toEqual([theirs]);
    }
    const seen: string[] = [];
    const tail = new TurnEndTail(join(root, "turn_ends"), (id) => seen.push(id));
    tail.start();
    try {
      // as gemini runs it: through bash -c, with a sanitized env plus the hook's own env (nothing of the pane's)
      run(["bash", "-c", ours[0].command], { ...spec, env: ours[0].env });
      await waitFor("the id read back", () => seen.length === 1, { timeoutMs: 5_000 });
      expect(seen).toEqual([ID]);
    } finally {
      tail.stop();
    }
  });

  // measured: copilot 1.0.102 ran a --plugin-dir plugin's agentStop hook at each turn's end, the pane's env in its env
  test("copilot: an agentStop hook in a plugin of this launch only (--plugin-dir <private folder>), run through bash", async () => {
    const spec = launch("copilot");
    const i = spec.argv.indexOf("--plugin-dir");
    expect(i).toBeGreaterThan(0);
    const dir = spec.argv[i + 1]!;
    expect(dir).toBe(join(privateMcpDir(join(root, "s"), root), "coder-1.copilot-plugin"));
    const file = (name: string) => JSON.parse(spec.files.find((f) => f.path === join(dir, name))!.content);
    // a plugin is a folder with its manifest, which names its hooks file
    expect(file("plugin.json")).toMatchObject({ name: "agentmux-turn-end", hooks: "hooks.json" });
    const hooks = file("hooks.json");
    expect(hooks.version).toBe(1);
    expect(Object.keys(hooks.hooks)).toEqual(["agentStop"]);
    expect(hooks.hooks.agentStop).toEqual([{ type: "command", bash: expect.any(String), timeoutSec: 10 }]);
    expect(
      spec.files
        .filter((f) => f.path.startsWith(dir))
        .map((f) => f.content)
        .join(""),
    ).not.toContain(ID);
    expect(spec.env).toMatchObject({ AGENTMUX_TURN_ID: ID, AGENTMUX_TURN_ENDS: join(root, "turn_ends") });
    const seen: string[] = [];
    const tail = new TurnEndTail(join(root, "turn_ends"), (id) => seen.push(id));
    tail.start();
    try {
      run(["bash", "-c", hooks.hooks.agentStop[0].bash], spec);
      await waitFor("the id read back", () => seen.length === 1, { timeoutMs: 5_000 });
      expect(seen).toEqual([ID]);
    } finally {
      tail.stop();
    }
    expect(launch("copilot", { batch: true }).argv).not.toContain("--plugin-dir");
    expect(launch("copilot", { turnEnd: false }).argv).not.toContain("--plugin-dir");
  });

  test("agy: a Stop bundle in the worktree's .agents/hooks.json (its own schema, stable, kept out of git with the MCP file), counted only when fully idle", async () => {
    const repo = await makeRepo();
    const spec = launch("agy", { workDir: repo });
    const file = spec.files.find((f) => f.path === join(repo, ".agents", "hooks.json"))!;
    expect(file.content).not.toContain(ID);
    const bundle = JSON.parse(file.content).agentmux;
    expect(bundle.enabled).toBe(true);
    writeLaunchFiles(spec);
    // both files excluded: one exclude write names them both
    expect(Bun.spawnSync(["git", "-C", repo, "status", "--porcelain", "--untracked-files=all"]).stdout.toString()).toBe("");
    const command = bundle.Stop[0].command as string;
    const seen: string[] = [];
    const tail = new TurnEndTail(join(root, "turn_ends"), (id) => seen.push(id));
    tail.start();
    // agy runs a hook command through the shell with the Stop payload on stdin; it must print {} (end normally)
    const stop = (payload: object, env: Record<string, string>) => {
      const r = Bun.spawnSync(["sh", "-c", command], {
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env },
        stdin: Buffer.from(JSON.stringify(payload)),
        stdout: "pipe",
        stderr: "pipe",
      });
      expect({ code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() }).toEqual({ code: 0, stdout: "{}", stderr: "" });
    };
    try {
      stop({ conversationId: "c", fullyIdle: false, terminationReason: "NO_TOOL_CALL" }, spec.env); // a background shell still runs
      stop({ conversationId: "c", fullyIdle: true, terminationReason: "NO_TOOL_CALL" }, spec.env);
      await waitFor("the id read back", () => seen.length === 1, { timeoutMs: 5_000 });
      stop({ conversationId: "c", fullyIdle: true }, {}); // an agy agentmux did not start: nothing written
      await Bun.sleep(300);
      expect(seen).toEqual([ID]);
    } finally {
      tail.stop();
    }
    // none in a batch run
    expect(launch("agy", { workDir: repo, batch: true }).files.map((f) => f.path)).not.toContain(join(repo, ".agents", "hooks.json"));
  });

  test("no hook for a batch run or without a turn-end id", () => {
    expect(launch("claude", { batch: true }).argv).not.toContain("--settings");
    expect(launch("claude", { turnEnd: false }).argv).not.toContain("--settings");
  });
});

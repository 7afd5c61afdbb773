import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { loadConfig } from "../../src/config/load.ts";
import { buildLaunch } from "../../src/providers/launch.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import type { Config } from "../../src/schema/config.ts";

/** `sandbox` in config: for all, per role, a role's word winning; a sandboxed launch is the same launch under bubblewrap. */
const S = "/work/p/.agentmux/.sessions/s1";
/** The coder's launch in session S of project /work/p (no CLI home of the user's). */
const launchContext = () => ({
  sessionDir: S,
  projectDir: "/work/p",
  workDir: "/work/p",
  agentKey: "coder",
  selfCommand: ["/opt/agentmux"],
  mcp: { url: "http://127.0.0.1:1/mcp", token: "a".repeat(64) },
  home: "/nonexistent-home",
});
const base = (): Config => loadConfig({ projectDir: "/nonexistent-project", env: { HOME: "/nonexistent-home" } }).config;

test("sandbox: true puts every role in it; roles.<r>.sandbox: false takes one out, and true puts one in on its own", () => {
  const all = { ...base(), sandbox: true, roles: { reviewer_logic: { provider: null, model: null, args: null, sandbox: false } } } as Config;
  expect(resolveRole(all, "coder").sandbox).toBe(true);
  expect(resolveRole(all, "reviewer_logic").sandbox).toBe(false);
  const one = { ...base(), roles: { coder: { provider: null, model: null, args: null, sandbox: true } } } as Config;
  expect(resolveRole(one, "coder").sandbox).toBe(true);
  expect(resolveRole(one, "architect").sandbox).toBe(false);
});

test("a sandboxed launch runs the same command under bwrap, shows its own MCP config read-only and makes the sim's own folder", () => {
  const config = { ...base(), sandbox: true, defaults: { ...base().defaults, provider: "sim" } } as Config;
  const plain = buildLaunch({ ...resolveRole(config, "coder"), sandbox: false }, launchContext());
  const boxed = buildLaunch(resolveRole(config, "coder"), launchContext());
  expect(boxed.argv[0]).toBe("bwrap");
  expect(boxed.argv.slice(boxed.argv.indexOf("--") + 1)).toEqual(plain.argv);
  const own = plain.files[0]!.path;
  expect(boxed.argv.join(" ")).toContain(`--ro-bind ${own} ${own}`);
  expect(boxed.env).toEqual(plain.env);
  expect(boxed.dirs).toEqual([join(S, ".runtime", "sim")]);
});

test("a sandboxed CLI with a turn-end hook can append to the session's turn-end file (under the hidden .runtime), and only to that", () => {
  const config = { ...base(), sandbox: true } as Config;
  const turnEnds = join(S, ".runtime", "turn_ends");
  const l = buildLaunch(resolveRole(config, "coder"), { ...launchContext(), turnEnd: { id: "t1", file: turnEnds } });
  const argv = l.argv.join(" ");
  expect(argv).toContain(`--tmpfs ${join(S, ".runtime")} `);
  expect(argv).toContain(`--bind ${turnEnds} ${turnEnds}`);
  expect(argv.indexOf(`--tmpfs ${join(S, ".runtime")} `)).toBeLessThan(argv.indexOf(`--bind ${turnEnds}`));
  expect(l.touch).toEqual([turnEnds]);
});

test("a sandboxed opencode can write the session id it opened to its launch's file and its token figures to .runtime/opencode, and nothing else there", () => {
  const config = { ...base(), sandbox: true, defaults: { ...base().defaults, provider: "opencode" } } as Config;
  const turnEnds = join(S, ".runtime", "turn_ends");
  const l = buildLaunch(resolveRole(config, "coder"), { ...launchContext(), turnEnd: { id: "t1", file: turnEnds } });
  const argv = l.argv.join(" ");
  const conversation = l.env.AGENTMUX_CONVERSATION_FILE!;
  const records = join(S, ".runtime", "opencode");
  expect(l.env.AGENTMUX_OPENCODE_RECORDS).toBe(records);
  // shown read-only as a file of the launch, then writable: the later bind wins
  expect(argv.lastIndexOf(`--bind ${conversation} ${conversation}`)).toBeGreaterThan(argv.indexOf(`--ro-bind ${conversation} ${conversation}`));
  expect(argv.indexOf(`--tmpfs ${join(S, ".runtime")} `)).toBeLessThan(argv.indexOf(`--bind ${records} ${records}`));
  // its folders in the home, made when missing so what it writes there outlives the launch
  const home = [".config/opencode", ".local/share/opencode", ".local/state/opencode", ".cache/opencode"].map((p) => join("/nonexistent-home", p));
  expect(l.dirs).toEqual([...home, records]);
});

test("a sandboxed claude gets its own copy of ~/.claude.json (taken at launch, 0600, in the run's private folder) and ~/.claude made and shown read-write; the user's file is never shown itself", () => {
  const home = makeTmpDir("amx-sbx-home-");
  try {
    writeFileSync(join(home, ".claude.json"), '{"hasCompletedOnboarding":true}\n');
    const config = { ...base(), sandbox: true, defaults: { ...base().defaults, provider: "claude" } } as Config;
    const l = buildLaunch(resolveRole(config, "coder"), { ...launchContext(), home });
    const copy = l.files.find((f) => f.path.endsWith(join("coder.home", ".claude.json")))!;
    expect(copy).toMatchObject({ content: '{"hasCompletedOnboarding":true}\n', secret: true });
    expect(copy.path.startsWith(join(home, ".cache", "agentmux", "mcp"))).toBe(true);
    const argv = l.argv.join(" ");
    expect(argv).toContain(`--bind ${copy.path} ${join(home, ".claude.json")}`);
    expect(argv).not.toContain(`--bind ${join(home, ".claude.json")} `);
    // its records folder (transcripts: token usage, --resume) is made before the launch and outlives it
    expect(l.dirs).toContain(join(home, ".claude"));
    expect(argv).toContain(`--bind ${join(home, ".claude")} ${join(home, ".claude")}`);
    // .config/claude names no folder by its / and is not there: nothing made, nothing shown
    expect(l.dirs).not.toContain(join(home, ".config/claude"));
  } finally {
    removeDir(home);
  }
});

test("a sandboxed codex whose CODEX_HOME is outside the home still writes its sessions where agentmux reads its usage", () => {
  const config = base();
  const codex = { ...config.providers.codex!, env: { ...config.providers.codex!.env, CODEX_HOME: "/data/codex-home" } };
  const c = { ...config, sandbox: true, defaults: { ...config.defaults, provider: "codex" }, providers: { ...config.providers, codex } } as Config;
  const l = buildLaunch(resolveRole(c, "coder"), launchContext());
  expect(l.dirs).toContain("/data/codex-home");
  expect(l.argv.join(" ")).toContain("--bind /data/codex-home /data/codex-home");
});

test("a sandboxed gemini whose user has no chats folder keeps its chats in the session's .runtime/gemini, shown to it read-write (a dangling link made gemini 0.61.0 exit 1)", () => {
  const config = { ...base(), sandbox: true, defaults: { ...base().defaults, provider: "gemini" } } as Config;
  const l = buildLaunch(resolveRole(config, "coder"), launchContext());
  const chats = join(S, ".runtime", "gemini");
  expect(l.links?.map((x) => x.target)).toContain(join(chats, "tmp"));
  expect(l.dirs).toContain(chats);
  const argv = l.argv.join(" ");
  expect(argv.indexOf(`--tmpfs ${join(S, ".runtime")} `)).toBeLessThan(argv.indexOf(`--bind ${chats} ${chats}`));
});

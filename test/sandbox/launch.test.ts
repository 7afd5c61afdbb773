import { expect, test } from "bun:test";
import { join } from "node:path";
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
  expect(l.dirs).toEqual([records]);
});

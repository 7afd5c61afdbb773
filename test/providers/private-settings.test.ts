import { expect, test } from "bun:test";
import { privateMcpDir } from "../../src/providers/mcp.ts";
import { mkdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { buildLaunch, writeLaunchFiles } from "../../src/providers/launch.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import { makeTmpDir } from "../helpers/tmp.ts";

test("gemini runs in a private home (GEMINI_CLI_HOME) whose settings are the user's plus agentmux's server; the user's files are linked, never changed (#12.10)", () => {
  const home = makeTmpDir("amx-home-");
  mkdirSync(join(home, ".gemini", "tmp"), { recursive: true });
  const userSettings = JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } }, mcpServers: { mine: { command: "my-server" } } });
  writeFileSync(join(home, ".gemini", "settings.json"), userSettings);
  writeFileSync(join(home, ".gemini", "oauth_creds.json"), "{}");
  const session = `${makeTmpDir("amx-proj-")}/.agentmux/.sessions/20260101-000000-x`;
  const config = loadConfig({ projectDir: "/nonexistent", env: { HOME: home } }).config;
  const agent = resolveRole({ ...config, defaults: { ...config.defaults, provider: "gemini" } }, "architect");
  const spec = buildLaunch(agent, { sessionDir: session, projectDir: "/tmp", workDir: "/tmp", agentKey: "architect", selfCommand: ["/opt/agentmux"], home });
  const gh = spec.env.GEMINI_CLI_HOME!;
  expect(gh).toBe(`${privateMcpDir(session, home)}/architect.gemini-home`);
  expect(privateMcpDir(session, home)).toStartWith(`${home}/.cache/agentmux/mcp/20260101-000000-x-`);
  expect(spec.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH).toBeUndefined();
  const old = process.umask(0o002); // a umask that would make new folders group-writable
  try {
    writeLaunchFiles(spec);
  } finally {
    process.umask(old);
  }
  const settings = JSON.parse(readFileSync(join(gh, ".gemini", "settings.json"), "utf8"));
  expect(settings.security.auth.selectedType).toBe("gemini-api-key");
  expect(Object.keys(settings.mcpServers).sort()).toEqual(["agentmux", "mine"]);
  // the run's endpoint with the agent's token: the settings file is 0600
  expect(settings.mcpServers.agentmux).toMatchObject({ httpUrl: expect.stringContaining("/mcp"), trust: true });
  expect(statSync(join(gh, ".gemini", "settings.json")).mode & 0o777).toBe(0o600);
  expect(readlinkSync(join(gh, ".gemini", "oauth_creds.json"))).toBe(join(home, ".gemini", "oauth_creds.json"));
  expect(readlinkSync(join(gh, ".gemini", "tmp"))).toBe(join(home, ".gemini", "tmp"));
  expect(readFileSync(join(home, ".gemini", "settings.json"), "utf8")).toBe(userSettings);
  for (let d = dirname(join(gh, ".gemini", "settings.json")); d.length > home.length; d = dirname(d)) expect(statSync(d).mode & 0o077).toBe(0);
});

test("the user's gemini settings with comments after values (which gemini accepts) keep every setting, and a URL's // is not a comment", () => {
  const home = makeTmpDir("amx-home-");
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(
    join(home, ".gemini", "settings.json"),
    [
      "{",
      '  "security": { "auth": { "selectedType": "oauth-personal" } }, // my auth',
      '  /* a proxy, "quoted" */ "proxy": "http://127.0.0.1:3128",',
      '  "model": { "name": "gemini-2.5-pro" } // "x"',
      "}",
    ].join("\n"),
  );
  const session = `${makeTmpDir("amx-proj-")}/.agentmux/.sessions/20260101-000000-x`;
  const config = loadConfig({ projectDir: "/nonexistent", env: { HOME: home } }).config;
  const agent = resolveRole({ ...config, defaults: { ...config.defaults, provider: "gemini" } }, "architect");
  const spec = buildLaunch(agent, { sessionDir: session, projectDir: "/tmp", workDir: "/tmp", agentKey: "architect", selfCommand: ["/opt/agentmux"], home });
  writeLaunchFiles(spec);
  const settings = JSON.parse(readFileSync(join(spec.env.GEMINI_CLI_HOME!, ".gemini", "settings.json"), "utf8"));
  expect(settings).toMatchObject({ security: { auth: { selectedType: "oauth-personal" } }, proxy: "http://127.0.0.1:3128", model: { name: "gemini-2.5-pro" } });
  expect(Object.keys(settings.mcpServers)).toEqual(["agentmux"]);
});

test("doctor applies gemini's own rule to its system settings files: root-owned and not group/other-writable all the way up", async () => {
  const { geminiSystemFileProblem } = await import("../../src/providers/gemini-home.ts");
  const tree: Record<string, { uid: number; mode: number }> = {
    "/": { uid: 0, mode: 0o755 },
    "/etc": { uid: 0, mode: 0o755 },
    "/etc/gemini-cli": { uid: 0, mode: 0o755 },
    "/etc/gemini-cli/settings.json": { uid: 0, mode: 0o644 },
    "/home": { uid: 0, mode: 0o755 },
    "/home/u": { uid: 1000, mode: 0o755 },
    "/home/u/defaults.json": { uid: 1000, mode: 0o644 },
    "/tmp": { uid: 0, mode: 0o41777 },
    "/tmp/defaults.json": { uid: 0, mode: 0o644 },
  };
  const stat = (p: string) => tree[p] ?? null;
  expect(geminiSystemFileProblem("/etc/gemini-cli/settings.json", stat)).toBeNull();
  expect(geminiSystemFileProblem("/nonexistent.json", stat)).toBeNull();
  expect(geminiSystemFileProblem("/home/u/defaults.json", stat)).toBe("File '/home/u/defaults.json' is not owned by root (uid 0). Current uid: 1000.");
  expect(geminiSystemFileProblem("/tmp/defaults.json", stat)).toBe("Directory '/tmp' is writable by group or others (mode: 1777).");
});

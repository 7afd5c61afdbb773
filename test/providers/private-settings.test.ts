import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { dirname } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { buildLaunch, writeLaunchFiles } from "../../src/providers/launch.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import { makeTmpDir } from "../helpers/tmp.ts";

test("gemini's settings file lives in a private per-user folder, even for a project under /tmp", () => {
  const home = makeTmpDir("amx-home-");
  const session = `${makeTmpDir("amx-proj-")}/.agentmux/.sessions/20260101-000000-x`;
  const config = loadConfig({ projectDir: "/nonexistent", env: { HOME: home } }).config;
  const agent = resolveRole({ ...config, defaults: { ...config.defaults, provider: "gemini" } }, "architect");
  const spec = buildLaunch(agent, { sessionDir: session, projectDir: "/tmp", workDir: "/tmp", agentKey: "architect", selfCommand: ["/opt/agentmux"], home });
  const file = spec.env.GEMINI_CLI_SYSTEM_DEFAULTS_PATH!;
  expect(file.startsWith(`${home}/.cache/agentmux/mcp/20260101-000000-x/`)).toBe(true);
  const old = process.umask(0o002); // a umask that would make new folders group-writable
  try {
    writeLaunchFiles(spec);
  } finally {
    process.umask(old);
  }
  // gemini refuses the file when any folder above it is writable by group or others
  for (let d = dirname(file); d.length > home.length; d = dirname(d)) expect(statSync(d).mode & 0o022).toBe(0);
});

/**
 * Opt-in checks against the real agent CLIs: AGENTMUX_REAL_CLI=1 and the CLI on PATH.
 * Each runs in a throwaway HOME / CODEX_HOME with auto-updaters off, and asks the CLI's own
 * `mcp list` whether it accepts the MCP wiring buildLaunch generates.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { findOnPath } from "../../src/providers/doctor.ts";
import { buildLaunch, writeLaunchFiles } from "../../src/providers/launch.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const enabled = process.env.AGENTMUX_REAL_CLI === "1";
const has = (cli: string) => enabled && findOnPath(cli, process.env.PATH ?? "") !== null;

let root: string;
beforeEach(() => {
  root = makeTmpDir("amx-realcli-");
});
afterEach(() => removeDir(root));

function launchFor(provider: string) {
  const config = loadConfig({ projectDir: root, env: { HOME: root } }).config;
  config.defaults.provider = provider;
  const spec = buildLaunch(resolveRole(config, "coder"), {
    sessionDir: join(root, "session"), projectDir: root, workDir: root, agentKey: "coder-1", selfCommand: ["/opt/agentmux"], home: join(root, "home"),
  });
  writeLaunchFiles(spec);
  return spec;
}

function run(argv: string[], env: Record<string, string>) {
  const p = Bun.spawnSync(argv, { cwd: root, env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe", timeout: 60000 });
  return { code: p.exitCode, out: p.stdout.toString() + p.stderr.toString() };
}

test.skipIf(!has("codex"))("codex mcp list accepts the -c overrides", () => {
  const spec = launchFor("codex");
  // keep only the -c pairs (the interactive-only flags do not apply to `mcp list`)
  const overrides: string[] = [];
  for (let i = 1; i < spec.argv.length; i++) if (spec.argv[i] === "-c") overrides.push("-c", spec.argv[++i]!);
  const r = run(["codex", ...overrides, "mcp", "list", "--json"], { HOME: join(root, "home"), CODEX_HOME: join(root, "codex-home"), ...spec.env });
  expect(r.code).toBe(0);
  const servers = JSON.parse(r.out.slice(r.out.indexOf("[")));
  const agentmux = servers.find((s: { name: string }) => s.name === "agentmux");
  expect(agentmux).toBeDefined();
  expect(JSON.stringify(agentmux)).toContain("/opt/agentmux");
});

test.skipIf(!has("gemini"))("gemini mcp list sees the server from the session settings file", () => {
  const spec = launchFor("gemini");
  const r = run(["gemini", "mcp", "list"], { HOME: join(root, "home"), ...spec.env });
  expect(r.code).toBe(0);
  expect(r.out).toContain("agentmux");
  expect(r.out).toContain("/opt/agentmux mcp-server");
});

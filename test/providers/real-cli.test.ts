/**
 * Opt-in checks against the real agent CLIs: AGENTMUX_REAL_CLI=1 and the CLI on PATH (or in
 * REAL_CLI_PREFIX/bin). Each runs in a throwaway HOME / CODEX_HOME with auto-updaters off, and
 * asks the CLI's own `mcp list` whether it accepts the MCP wiring buildLaunch generates — with
 * the run's real endpoint listening, so a CLI that connects shows agentmux as connected and the
 * endpoint sees its initialize and tools/list under the agent's token.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { findOnPath } from "../../src/providers/doctor.ts";
import { buildLaunch, writeLaunchFiles } from "../../src/providers/launch.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import { makeFixture, startEndpoint, type Endpoint, type Fixture } from "../mcp/harness.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const enabled = process.env.AGENTMUX_REAL_CLI === "1";
const binOf = (cli: string) =>
  findOnPath(cli, process.env.PATH ?? "") ?? (process.env.REAL_CLI_PREFIX ? findOnPath(join(process.env.REAL_CLI_PREFIX, "bin", cli), "") : null);
const has = (cli: string) => enabled && binOf(cli) !== null;

let fx: Fixture;
let ep: Endpoint;
/** the CLIs' home: not under /tmp — gemini skips a settings file below a group/other-writable folder */
let home: string;
beforeEach(async () => {
  fx = await makeFixture();
  ep = startEndpoint(fx);
  // in the user's own home, as the real-CLI suite's runs (the CLIs' install folder may be root's)
  const runs = process.env.REAL_CLI_RUNS || join(homedir(), ".cache", "agentmux-real-cli", "runs");
  mkdirSync(runs, { recursive: true, mode: 0o700 });
  home = makeTmpDir("mcp-list-", runs);
  mkdirSync(join(home, ".codex"));
});
afterEach(() => {
  ep.stop();
  fx.cleanup();
  removeDir(home);
});

function launchFor(provider: string) {
  const root = fx.projectDir;
  const config = loadConfig({ projectDir: root, env: { HOME: root } }).config;
  config.defaults.provider = provider;
  const token = ep.tokens.issue("coder-1", "coder", root);
  const spec = buildLaunch(resolveRole(config, "coder"), {
    sessionDir: fx.sessionDir,
    projectDir: root,
    workDir: root,
    agentKey: "coder-1",
    selfCommand: ["/opt/agentmux"],
    home,
    mcp: { url: ep.endpoint.url, token },
  });
  writeLaunchFiles(spec);
  return { spec, token };
}

/** Async: the endpoint answers from this process, so its event loop must keep running. */
async function run(argv: string[], env: Record<string, string>) {
  const p = Bun.spawn(argv, { cwd: fx.projectDir, env: { PATH: process.env.PATH ?? "", ...env }, stdout: "pipe", stderr: "pipe", timeout: 60000 });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out: out + err };
}

test.skipIf(!has("codex"))(
  "codex mcp list accepts the -c overrides: the endpoint URL and the token's env variable, no token in argv",
  async () => {
    const { spec, token } = launchFor("codex");
    // keep only the -c pairs (the interactive-only flags do not apply to `mcp list`)
    const overrides: string[] = [];
    for (let i = 1; i < spec.argv.length; i++) if (spec.argv[i] === "-c") overrides.push("-c", spec.argv[++i]!);
    expect(overrides.join(" ")).not.toContain(token);
    const r = await run([binOf("codex")!, ...overrides, "mcp", "list", "--json"], { HOME: home, CODEX_HOME: join(home, ".codex"), ...spec.env });
    expect(r.code, r.out).toBe(0);
    const servers = JSON.parse(r.out.slice(r.out.indexOf("[")));
    const agentmux = servers.find((s: { name: string }) => s.name === "agentmux");
    expect(agentmux.transport).toMatchObject({ type: "streamable_http", url: ep.endpoint.url, bearer_token_env_var: "AGENTMUX_MCP_TOKEN" });
  },
  120_000,
); // a real CLI starts in seconds on a loaded machine

test.skipIf(!has("gemini"))(
  "gemini mcp list connects to the endpoint from the private settings file, with the agent's token",
  async () => {
    const { spec } = launchFor("gemini");
    const r = await run([binOf("gemini")!, "mcp", "list"], { HOME: home, ...spec.env });
    expect(r.code).toBe(0);
    expect(r.out).toContain("agentmux");
    expect(r.out).toContain(ep.endpoint.url);
    expect(r.out).toMatch(/Connected/);
    expect(ep.tokens.link("coder-1")?.initializedAt).toBeNumber();
  },
  120_000,
);

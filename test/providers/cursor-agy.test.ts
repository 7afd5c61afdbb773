/**
 * cursor and agy (#27): built from published behaviour (reference/cli-evidence.md,
 * agy-evidence.md). Their MCP wiring never writes into the user's checkout or global config:
 * cursor gets a private plugin folder; agy reads only a workspace file, written with content
 * that never changes (no token) and kept out of git through info/exclude, in a real repository
 * and in a real linked worktree (git's own `status` is the judge).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { findAgyConversation } from "../../src/providers/adapters/agy.ts";
import { buildLaunch, writeLaunchFiles } from "../../src/providers/launch.ts";
import { privateMcpDir } from "../../src/providers/mcp.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import { ROLE_TOOLS, type Role } from "../../src/schema/catalog.ts";
import type { Config } from "../../src/schema/config.ts";
import { makeRepo } from "../git/fixture.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

let root: string;
let home: string;
let base: Config;
const SELF = ["/opt/agentmux"];
const URL = "http://127.0.0.1:41234/mcp";

beforeAll(() => {
  root = makeTmpDir("amx-cursor-agy-");
  home = join(root, "home");
  mkdirSync(home);
  base = loadConfig({ projectDir: root, env: { HOME: home } }).config;
});
afterAll(() => removeDir(root));

function launch(provider: string, role: Role, workDir: string, o: { token?: string; agentKey?: string } = {}) {
  const config = structuredClone(base);
  config.defaults.provider = provider;
  const sessionDir = join(root, "session-1");
  return buildLaunch(resolveRole(config, role), {
    sessionDir,
    projectDir: workDir,
    workDir,
    agentKey: o.agentKey ?? role,
    selfCommand: SELF,
    home,
    mcp: { url: URL, token: o.token ?? "ab".repeat(32) },
  });
}

const git = (dir: string, ...args: string[]) => {
  const r = Bun.spawnSync(["git", "-C", dir, ...args], { stdout: "pipe", stderr: "pipe" });
  expect({ args, code: r.exitCode, err: r.stderr.toString() }).toMatchObject({ code: 0 });
  return r.stdout.toString();
};

describe("cursor", () => {
  test("argv: --force and --approve-mcps, the session folder added, a private plugin folder; nothing in the checkout or ~/.cursor", () => {
    const work = join(root, "cursor-work");
    mkdirSync(work);
    const l = launch("cursor", "planner", work);
    const plugin = join(privateMcpDir(join(root, "session-1"), home), "planner.cursor-plugin");
    expect(l.argv).toEqual(["cursor-agent", "--force", "--approve-mcps", "--add-dir", join(root, "session-1"), "--plugin-dir", plugin]);
    expect(l.env).toEqual({ NO_OPEN_BROWSER: "1" });
    expect(l.files.map((f) => [f.path, f.secret])).toEqual([[join(plugin, "plugin.json"), true]]);
    expect(JSON.parse(l.files[0]!.content).mcpServers).toEqual({ agentmux: { url: URL, headers: { Authorization: `Bearer ${"ab".repeat(32)}` } } });
    expect(l.files.every((f) => !f.path.startsWith(work) && !f.path.includes(".cursor/"))).toBe(true);
  });
});

describe("agy", () => {
  test("a checkout: .agents/mcp_config.json written once with stable content, kept out of git; the token in a private file the env names (#31)", async () => {
    const repo = await makeRepo();
    const a = launch("agy", "architect", repo, { token: "11".repeat(32) });
    const b = launch("agy", "reviewer_logic", repo, { token: "22".repeat(32), agentKey: "reviewer_logic" });
    expect(a.argv).toEqual(["agy", "--dangerously-skip-permissions", "--add-dir", join(root, "session-1")]);
    const tokenFile = join(privateMcpDir(join(root, "session-1"), home), "architect.token");
    expect(a.env).toMatchObject({ AGY_CLI_DISABLE_AUTO_UPDATE: "true", AGENTMUX_MCP_URL: URL, AGENTMUX_MCP_TOKEN_FILE: tokenFile });
    expect(JSON.stringify(a.env)).not.toContain("11".repeat(32));
    expect(a.files.find((f) => f.path === tokenFile)).toEqual({ path: tokenFile, content: "11".repeat(32) + "\n", secret: true });
    const file = (l: typeof a) => l.files.find((f) => f.path === join(repo, ".agents", "mcp_config.json"))!;
    // two agents, two tokens, one file content: agy's approval and other agents in the folder are unaffected
    expect(file(a).content).toBe(file(b).content);
    expect(file(a).content).not.toContain("11".repeat(32));
    const server = JSON.parse(file(a).content).mcpServers.agentmux;
    expect(server).toMatchObject({ command: "/opt/agentmux", args: ["mcp-server"] });
    expect(server.enabledTools).toEqual(expect.arrayContaining([...ROLE_TOOLS.architect, ...ROLE_TOOLS.reviewer_logic]));
    writeLaunchFiles(a);
    expect(readFileSync(join(repo, ".git", "info", "exclude"), "utf8")).toContain("/.agents/mcp_config.json");
    expect(git(repo, "status", "--porcelain", "--untracked-files=all")).toBe("");
    // the next launch finds everything in the checkout in place: nothing more to write there (only its own token file)
    expect(writeLaunchFiles(launch("agy", "planner", repo))).toEqual([join(privateMcpDir(join(root, "session-1"), home), "planner.token")]);
  });

  test("a linked worktree: the exclusion goes to the repository's shared info/exclude", async () => {
    const repo = await makeRepo();
    const wt = join(root, "wt-coder");
    git(repo, "worktree", "add", "-q", "-b", "coder-branch", wt);
    writeLaunchFiles(launch("agy", "coder", wt));
    expect(existsSync(join(wt, ".agents", "mcp_config.json"))).toBe(true);
    expect(git(wt, "status", "--porcelain", "--untracked-files=all")).toBe("");
    expect(readFileSync(join(repo, ".git", "info", "exclude"), "utf8")).toContain("/.agents/mcp_config.json");
  });

  test("a .agents/mcp_config.json of the user's own is left as it is", async () => {
    const repo = await makeRepo();
    mkdirSync(join(repo, ".agents"));
    const mine = '{"mcpServers":{"mine":{"command":"my-server"}}}\n';
    writeFileSync(join(repo, ".agents", "mcp_config.json"), mine);
    const l = launch("agy", "coder", repo);
    expect(l.files.some((f) => f.path.startsWith(repo))).toBe(false);
    writeLaunchFiles(l);
    expect(readFileSync(join(repo, ".agents", "mcp_config.json"), "utf8")).toBe(mine);
  });

  test("its conversation id is found in its brain folder by the prompt it was sent; another agent's is not taken", () => {
    const agyHome = join(root, "agy-home");
    const brain = (id: string, prompt: string) => {
      const dir = join(agyHome, "brain", id, ".system_generated", "logs");
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, "transcript.jsonl"),
        JSON.stringify({ step_index: 0, source: "USER_EXPLICIT", type: "USER_INPUT", content: `<USER_REQUEST>${prompt}</USER_REQUEST>` }) + "\n",
      );
    };
    const mine = 'Read and follow the instructions in "/r/.agentmux/.sessions/s/02_architecting/architect_prompt.md"';
    brain("0c6e2a3e-1111-4c4c-8a8a-000000000001", 'Read and follow the instructions in "/r/.agentmux/.sessions/s/03_planning/planner_prompt.md"');
    expect(findAgyConversation(agyHome, Date.now() - 5000, mine)).toBeNull();
    brain("0c6e2a3e-1111-4c4c-8a8a-000000000002", mine);
    expect(findAgyConversation(agyHome, Date.now() - 5000, mine)).toBe("0c6e2a3e-1111-4c4c-8a8a-000000000002");
  });
});

/**
 * #28: `agentmux config migrate` on every config shape the Python agentmux documents (its
 * built-in defaults file, a project config, the examples of its configuration guide) either
 * exits 0 with a config that then loads, or exits 1 naming what it could not carry over.
 * Through the compiled binary: migrate --write, then `agentmux config --json` loads it.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinLayer } from "../../src/config/load.ts";
import { BINARY, makeTmpDir, removeDir } from "../helpers/tmp.ts";

const RO = "Bash(ls:*) Bash(cat:*) Bash(find:*) Bash(grep:*) Bash(git:*) Bash(head:*)\n        Bash(tail:*) Bash(pwd:*) Bash(wc:*)";
const ROLES = [
  "architect",
  "planner",
  "product-manager",
  "reviewer",
  "coder",
  "designer",
  "code-researcher",
  "web-researcher",
  "reviewer_expert",
  "reviewer_logic",
  "reviewer_quality",
];
const claudeTools: Record<string, string | null> = {
  architect: `${RO} mcp__agentmux__research_dispatch_code\n        mcp__agentmux__research_dispatch_web mcp__agentmux__submit_architecture`,
  planner: `${RO} mcp__agentmux__research_dispatch_code\n        mcp__agentmux__research_dispatch_web mcp__agentmux__submit_plan`,
  "product-manager": `${RO} mcp__agentmux__research_dispatch_code\n        mcp__agentmux__research_dispatch_web mcp__agentmux__submit_pm_done`,
  reviewer: RO,
  coder: "mcp__agentmux__submit_done",
  designer: null,
  "code-researcher":
    "Read Glob Grep Write Edit Bash(ls:*) Bash(cat:*) Bash(find:*) Bash(grep:*)\n        Bash(head:*) Bash(tail:*) Bash(pwd:*) Bash(wc:*) mcp__agentmux__submit_research_done",
  "web-researcher":
    "WebFetch WebSearch Read Glob Grep Write Edit Bash(ls:*) Bash(cat:*) Bash(head:*)\n        Bash(tail:*) mcp__agentmux__submit_research_done",
  reviewer_expert: `${RO} mcp__agentmux__submit_review`,
  reviewer_logic: `${RO} mcp__agentmux__submit_review`,
  reviewer_quality: `${RO} mcp__agentmux__submit_review`,
};
const perRole = (args: (r: string) => string[]) =>
  ROLES.map(
    (r) =>
      `      ${r}:\n${args(r)
        .map((a) => `      - ${a}`)
        .join("\n")}`,
  ).join("\n");

/** The Python tool's built-in defaults file, in its layout (block lists, wrapped plain scalars). */
const PYTHON_DEFAULTS = `version: 2
defaults:
  session_name: multi-agent-mvp
  provider: claude
  max_review_iterations: 3
  completion:
    skip_final_approval: false
  compression:
    enabled: false
github:
  base_branch: main
  draft: true
  branch_prefix: feature/
providers:
  claude:
    command: claude
    model_flag: --model
    trust_snippet: Do you trust the contents of this directory?
    default_model: sonnet
    role_args:
${perRole((r) => ["--permission-mode", "acceptEdits", ...(claudeTools[r] ? ["--allowedTools", claudeTools[r]!] : [])])}
  codex:
    command: codex
    model_flag: --model
    trust_snippet: null
    batch_subcommand: exec
    role_args:
${perRole(() => ["-s", "workspace-write", "-a", "never"])}
  gemini:
    command: gemini
    model_flag: --model
    trust_snippet: Trust this folder?
    batch_subcommand: -p
    role_args:
${perRole(() => ["--approval-mode", "yolo"])}
  opencode:
    command: opencode
    trust_snippet: null
    batch_subcommand: run
    role_args:
${perRole((r) => ["--agent", `agentmux-${r.startsWith("reviewer") ? "reviewer" : r}`])}
  copilot:
    command: copilot
    model_flag: --model
    trust_snippet: trust the files
    batch_subcommand: -p
    single_coder: true
    sub_agent_tool: task
    default_model: claude-sonnet-4.6
    default_role_args:
    - --allow-all
    model_args:
      claude-sonnet-4.6:
      - --reasoning-effort
      - high
      claude-opus-4.6:
      - --reasoning-effort
      - high
    role_args: {}
  cursor:
    command: agent
    model_flag: --model
    trust_snippet: "Approve all servers"
    trust_key: "a"
    batch_command:
      verb: "-p"
      mode: flag
    role_args:
      code-researcher:
        - --trust
        - --force
      web-researcher:
        - --trust
        - --force
  qwen:
    command: qwen
    model_flag: null
    trust_snippet: null
    batch_command:
      verb: ""
      mode: stdin
    default_model: qwen3-max
    default_role_args:
      - --yolo
    role_args: {}
`;

/** A project config as the Python tool's own repository keeps one: copilot by default, cursor for two roles. */
const PYTHON_PROJECT = `version: 2

defaults:
  session_name: agentmux
  provider: copilot
  max_review_iterations: 3

providers:
  copilot:
    model_args:
      claude-opus-4.6:
        - --reasoning-effort
        - high

roles:
  planner:
    provider: cursor
    model: gemini-3-flash
  coder:
    provider: cursor
    model: auto
  web-researcher:
    model: gpt-5.2
`;

/** The examples of the Python tool's configuration guide. */
const GUIDE: Record<string, string> = {
  "primary project config": `version: 2\n\ndefaults:\n  session_name: multi-agent-mvp\n  provider: claude\n  model: sonnet\n  max_review_iterations: 3\n  completion:\n    skip_final_approval: false\n\ngithub:\n  base_branch: main\n  draft: true\n  branch_prefix: feature/\n\nroles:\n  architect:\n    model: opus\n  reviewer:\n    model: sonnet\n  coder:\n    provider: codex\n    model: gpt-5.3-codex\n`,
  "copilot per role": `version: 2\ndefaults:\n  provider: copilot\n  model: claude-sonnet-4.6\nroles:\n  architect:\n    model: claude-opus-4.6\n  reviewer_expert:\n    model: gpt-5.4\n`,
  "provider default settings": `version: 2\nproviders:\n  my-provider:\n    command: my-cli\n    model_flag: --model\n    default_model: my-default-model\n    default_role_args:\n    - --shared-flag\n    - shared-value\n    role_args:\n      coder:\n      - --coder-specific\nroles:\n  coder:\n    provider: my-provider\n`,
  "model-specific arguments": `version: 2\nproviders:\n  copilot:\n    model_args:\n      claude-sonnet-4.6:\n      - --reasoning-effort\n      - high\n      claude-opus-4.6:\n      - --reasoning-effort\n      - high\n`,
  "single coder": `version: 2\nproviders:\n  my-provider:\n    command: my-cli\n    model_flag: --model\n    single_coder: true\n    role_args:\n      coder: [--allow-all]\n`,
  "version 1": `version: 1\ndefaults:\n  provider: claude\n  profile: standard\nlaunchers:\n  mycli:\n    command: mycli\nroles:\n  architect:\n    profile: max\n  coder:\n    provider: codex\n    profile: standard\n`,
  "legacy completion keys": `version: 2\ndefaults:\n  provider: gemini\n  require_final_approval: false\n  tier: max\nroles:\n  reviewer:\n    provider: qwen\n    tier: standard\n`,
};

const hasCursor = Object.keys(builtinLayer().providers as object).includes("cursor");

let root = "";
beforeEach(() => {
  root = makeTmpDir("amx-migrate-py-");
  mkdirSync(join(root, ".agentmux"));
  mkdirSync(join(root, "xdg", "agentmux"), { recursive: true });
});
afterEach(() => removeDir(root));

const agentmux = (...args: string[]) => {
  const p = Bun.spawnSync([BINARY, ...args], {
    cwd: root,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, HOME: root, XDG_CONFIG_HOME: join(root, "xdg"), NO_COLOR: "1" },
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

/** migrate --write the project config, then load it as a run does. */
function migrateThenLoad(text: string) {
  const file = join(root, ".agentmux/config.yaml");
  writeFileSync(file, text);
  const m = agentmux("config", "migrate", ".agentmux/config.yaml", "--write");
  const loaded = agentmux("config", "--json");
  return { m, loaded, config: loaded.code === 0 ? JSON.parse(loaded.out).config : null, written: readFileSync(file, "utf8") };
}

describe.skipIf(!existsSync(BINARY))("config migrate → load, for each Python agentmux config shape (compiled binary)", () => {
  test("its built-in defaults file: every provider carried, its built-in flags left out for agentmux's own", () => {
    const { m, loaded, config } = migrateThenLoad(PYTHON_DEFAULTS);
    expect(m.code).toBe(0);
    expect(loaded.code).toBe(0);
    const builtin = builtinLayer() as { providers: Record<string, { default_role_args?: string[]; default_model?: string | null; role_args?: object }> };
    // the Python tool's --allowedTools lists (wrapped over lines in its file) are recognised as its own
    expect(config.providers.claude.role_args).toEqual(builtin.providers.claude!.role_args);
    expect(m.err).toContain("providers.claude: left out command, model_flag, default_model, role_args: the Python agentmux's built-in values");
    // agentmux's own copilot and claude settings, not the Python tool's --allow-all / sonnet
    expect(config.providers.copilot.default_role_args).toEqual(builtin.providers.copilot!.default_role_args);
    expect(config.providers.claude.default_model).toBe(builtin.providers.claude!.default_model ?? null);
    expect(config.defaults.provider).toBe("claude");
    expect(m.err).toContain(
      "providers.copilot: left out command, model_flag, single_coder, sub_agent_tool, default_model, default_role_args, model_args, role_args: the Python agentmux's built-in values",
    );
    if (!hasCursor) expect(m.err).toContain("providers.cursor: not carried over: agentmux has no cursor provider (yet)");
    else
      expect(m.err).toContain(
        "providers.cursor: left out command, model_flag, role_args: the Python agentmux's built-in values; agentmux's own cursor settings apply",
      );
  }, 60_000);

  test("a project config whose roles use cursor: carried when agentmux has cursor, else exit 1 naming cursor and nothing written", () => {
    const { m, loaded, config, written } = migrateThenLoad(PYTHON_PROJECT);
    if (hasCursor) {
      expect(m.code).toBe(0);
      expect(config.roles.coder.provider).toBe("cursor");
      return;
    }
    expect(m.code).toBe(1);
    expect(m.err).toContain("roles.planner.provider: cursor: not carried over: agentmux has no cursor provider (yet)");
    expect(m.err).toContain("roles.coder.provider: cursor: not carried over");
    expect(written).toBe(PYTHON_PROJECT); // --write wrote nothing
    expect(loaded.code).toBe(2); // and the file as it is does not load
  }, 60_000);

  test("printing (no --write) also exits 1 for the cursor project config, with the converted text on stdout", () => {
    writeFileSync(join(root, "project.yaml"), PYTHON_PROJECT);
    const r = agentmux("config", "migrate", "project.yaml");
    expect(r.code).toBe(hasCursor ? 0 : 1);
    expect(r.out).toContain("providers:\n  copilot:\n    model_args:\n      claude-opus-4.6:");
  }, 60_000);

  for (const [name, text] of Object.entries(GUIDE)) {
    test(`the configuration guide's example: ${name}`, () => {
      const { m, loaded } = migrateThenLoad(text);
      if (m.code !== 0) console.error(m.err);
      expect(m.code).toBe(0);
      expect(loaded.code).toBe(0);
    }, 60_000);
  }

  test("a config.json stays JSON", () => {
    const file = join(root, ".agentmux/config.json");
    writeFileSync(file, JSON.stringify({ version: 2, defaults: { provider: "codex", session_name: "x" }, roles: { reviewer: { model: "o3" } } }, null, 2));
    expect(agentmux("config", "migrate", ".agentmux/config.json", "--write").code).toBe(0);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      version: 2,
      defaults: { provider: "codex" },
      roles: { reviewer_logic: { model: "o3" }, reviewer_quality: { model: "o3" }, reviewer_expert: { model: "o3" } },
    });
    expect(agentmux("config", "--json").code).toBe(0);
  }, 60_000);

  test("version 1's launchers become providers; a custom provider is told to set mcp", () => {
    const { m, config } = migrateThenLoad(GUIDE["version 1"]!);
    expect(m.err).toContain("launchers: now providers (its name before version 2)");
    expect(m.err).toContain("providers.mycli: carried over as a provider of your own; set providers.mycli.mcp");
    expect(config.providers.mycli.command).toBe("mycli");
    expect(config.roles.coder.provider).toBe("codex");
  }, 60_000);

  test("a project config using a provider its user config defines: loads once the user config is migrated", () => {
    writeFileSync(
      join(root, "xdg/agentmux/config.yaml"),
      "version: 2\nproviders:\n  kimi:\n    command: kimi\n    model_flag: --model-name\n    trust_snippet: Trust this folder?\n    role_args:\n      coder: [--sandbox, workspace-write]\n",
    );
    const project = "version: 2\nroles:\n  coder:\n    provider: kimi\n    model: kimi-2.5\n";
    // the user config still in the Python form: the project file's kimi is unknown on its own
    const before = migrateThenLoad(project);
    expect(before.m.code).toBe(1);
    expect(before.m.err).toContain('still to fix: roles.coder.provider: unknown provider "kimi"');
    expect(agentmux("config", "migrate", join(root, "xdg/agentmux/config.yaml"), "--write").code).toBe(0);
    const after = migrateThenLoad(project);
    expect(after.m.code).toBe(0);
    expect(after.config.roles.coder.provider).toBe("kimi");
    expect(after.config.providers.kimi.trust).toEqual([{ detect: "Trust this folder\\?", keys: ["Enter"] }]);
  }, 60_000);
});

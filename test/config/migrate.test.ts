/**
 * #17.18: `agentmux config migrate <file>` converts a config of the Python agentmux (its keys:
 * shared/reference/agentmux-python-inventory.md §7.2), keeping comments and naming what it could
 * not carry over; a legacy key in a config gets that hint instead of a bare "unknown key".
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinLayer, loadConfig } from "../../src/config/load.ts";
import { migrateConfigText } from "../../src/config/migrate.ts";
import { parseConfigText } from "../../src/config/read.ts";
import { validateLayer } from "../../src/config/validate.ts";
import { AgentmuxError } from "../../src/errors.ts";
import { BINARY, makeTmpDir, removeDir } from "../helpers/tmp.ts";

const PYTHON_CONFIG = `# our agentmux setup
version: 1
defaults:
  session_name: multi-agent-mvp
  provider: claude
  # the model everyone uses
  model: sonnet
  max_review_iterations: 4
  # we always look before committing
  require_final_approval: true
  compression:
    enabled: false
github:
  base_branch: develop   # our trunk
  draft: false
  branch_prefix: feat/
providers:
  claude:
    command: claude
    trust_snippet: "Do you trust the contents of this directory?"
  mycli:
    command: mycli
    model_flag: -m
    trust_snippet: "Trust this (folder)?"
    trust_key: y
    batch_command: {verb: "run --quiet", mode: positional}
    role_args:
      reviewer: [--readonly]
roles:
  reviewer:
    provider: mycli
    tier: high
  product_manager:
    model: opus
launchers: {}
`;

const BUILTINS = Object.keys(builtinLayer().providers as object);

describe("migrateConfigText", () => {
  const { text, notes } = migrateConfigText(PYTHON_CONFIG, BUILTINS);
  const data = parseConfigText(text, "migrated.yaml") as any;

  test("the result is a valid config of this agentmux with the same meaning", () => {
    expect(() => validateLayer("migrated.yaml", data)).not.toThrow();
    expect(data).toEqual({
      version: 2,
      defaults: { provider: "claude", model: "sonnet", max_review_iterations: 4, completion: { skip_final_approval: false } },
      github: { base_branch: "develop", draft: false, branch_prefix: "feat/" },
      providers: {
        mycli: {
          command: "mycli",
          model_flag: "-m",
          role_args: { reviewer_logic: ["--readonly"], reviewer_quality: ["--readonly"], reviewer_expert: ["--readonly"] },
          trust: [{ detect: "Trust this \\(folder\\)\\?", keys: ["y"] }],
          batch: { args: ["run", "--quiet"], mode: "positional" },
        },
      },
      roles: {
        reviewer_logic: { provider: "mycli" },
        reviewer_quality: { provider: "mycli" },
        reviewer_expert: { provider: "mycli" },
        "product-manager": { model: "opus" },
      },
    });
  });

  test("comments stay, on kept and on moved keys", () => {
    expect(text).toStartWith("# our agentmux setup\n");
    expect(text).toContain("  # the model everyone uses\n  model: sonnet\n");
    expect(text).toContain("  completion:\n    # we always look before committing\n    skip_final_approval: false\n");
    expect(text).toContain("base_branch: develop # our trunk");
  });

  test("every key that was renamed or left out is named, with why", () => {
    expect(notes).toEqual([
      "defaults.require_final_approval: now defaults.completion.skip_final_approval (its opposite)",
      "defaults.session_name: not carried over: agentmux names each session after its request",
      "defaults.compression: not carried over: context compression through headroom is not part of agentmux",
      "providers.claude: left out command: the Python agentmux's built-in values; agentmux's own claude settings apply (docs/migrating.md)",
      "providers.claude.trust_snippet: dropped; agentmux knows claude's trust dialogs",
      "providers.mycli.trust_snippet: now providers.mycli.trust (a regex of the dialog and the keys that accept it)",
      "providers.mycli.batch_command: now providers.mycli.batch (args and mode)",
      "providers.mycli.role_args.reviewer: now providers.mycli.role_args.reviewer_logic, providers.mycli.role_args.reviewer_quality, providers.mycli.role_args.reviewer_expert (agentmux runs three reviewers)",
      "providers.mycli: carried over as a provider of your own; set providers.mycli.mcp to the CLI whose MCP wiring it shares (claude, codex, gemini, opencode, copilot, qwen, cursor, agy), else its agents cannot call agentmux's tools",
      "roles.reviewer.tier: not carried over: tiers and profiles are gone: name the provider and model",
      "roles.reviewer: now roles.reviewer_logic, roles.reviewer_quality, roles.reviewer_expert (agentmux runs three reviewers)",
      "roles.product_manager: now roles.product-manager",
      "launchers: not carried over: not a setting agentmux has",
    ]);
  });

  test("the legacy skip_final_approval and batch_subcommand forms", () => {
    const r = migrateConfigText(
      "defaults:\n  skip_final_approval: true\nproviders:\n  codex:\n    command: codex\n  other:\n    command: other\n    batch_subcommand: exec\n",
      BUILTINS,
    );
    expect(parseConfigText(r.text, "x")).toEqual({
      version: 2,
      defaults: { completion: { skip_final_approval: true } },
      providers: { other: { command: "other", batch: { args: ["exec"], mode: "positional" } } },
    });
  });
});

describe("a provider of the Python tool that agentmux does not have", () => {
  test("is named as not carried over where a role or the default uses it; its built-in entry is dropped", () => {
    const r = migrateConfigText(
      "defaults:\n  provider: cursor\nproviders:\n  cursor:\n    command: agent\nroles:\n  coder:\n    provider: cursor\n  planner:\n    provider: claude\n",
      ["claude", "codex"],
    );
    expect(r.unresolved).toEqual([
      {
        key: "defaults.provider",
        problem: "defaults.provider: cursor: not carried over: agentmux has no cursor provider (yet); choose one it has for this key",
      },
      {
        key: "roles.coder.provider",
        problem: "roles.coder.provider: cursor: not carried over: agentmux has no cursor provider (yet); choose one it has for this key",
      },
    ]);
    expect(r.notes).toContain("providers.cursor: not carried over: agentmux has no cursor provider (yet)");
    // once agentmux has it, the same config carries it
    expect(migrateConfigText("roles:\n  coder:\n    provider: cursor\n", ["claude", "cursor"]).unresolved).toEqual([]);
  });
});

describe("a legacy key in a config names the migrate command (not a bare unknown key)", () => {
  let root = "";
  beforeEach(() => {
    root = makeTmpDir("amx-migrate-");
    mkdirSync(join(root, ".agentmux"));
  });
  afterEach(() => removeDir(root));

  test("version 1, defaults.session_name, providers.<p>.trust_snippet, roles.reviewer", () => {
    writeFileSync(join(root, ".agentmux/config.yaml"), PYTHON_CONFIG);
    let error: unknown;
    try {
      loadConfig({ projectDir: root, env: { HOME: root } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentmuxError);
    const hint = "convert the file with: agentmux config migrate .agentmux/config.yaml";
    const problems = (error as AgentmuxError).message.split("\n");
    expect(problems).toContain(`.agentmux/config.yaml: version: must be 2 (got 1) — version 1 is the Python agentmux's format; ${hint}`);
    expect(problems).toContain(`.agentmux/config.yaml: defaults.session_name: unknown key — a key of the Python agentmux; ${hint}`);
    expect(problems).toContain(`.agentmux/config.yaml: providers.mycli.trust_snippet: unknown key — a key of the Python agentmux; ${hint}`);
    expect(problems).toContain(`.agentmux/config.yaml: roles.reviewer: unknown key — a key of the Python agentmux; ${hint}`);
    // a plain typo still gets "did you mean"
    writeFileSync(join(root, ".agentmux/config.yaml"), "github:\n  drafts: true\n");
    expect(() => loadConfig({ projectDir: root, env: { HOME: root } })).toThrow("github.drafts: unknown key — did you mean draft?");
  });
});

describe.skipIf(!existsSync(BINARY))("agentmux config migrate (compiled binary)", () => {
  let root = "";
  beforeEach(() => {
    root = makeTmpDir("amx-migrate-cli-");
    mkdirSync(join(root, ".agentmux"));
    writeFileSync(join(root, ".agentmux/config.yaml"), PYTHON_CONFIG);
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

  test("prints the converted config and names each change on stderr; the file is untouched", () => {
    const r = agentmux("config", "migrate", ".agentmux/config.yaml");
    expect(r.code).toBe(0);
    expect(r.out).toBe(migrateConfigText(PYTHON_CONFIG, BUILTINS).text);
    expect(r.err).toContain("agentmux: config migrate: defaults.session_name: not carried over: agentmux names each session after its request\n");
    expect(readFileSync(join(root, ".agentmux/config.yaml"), "utf8")).toBe(PYTHON_CONFIG);
  }, 60_000);

  test("--write replaces the file (the original kept as .bak), then the config loads; a second --write refuses", () => {
    const r = agentmux("config", "migrate", ".agentmux/config.yaml", "--write");
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, ".agentmux/config.yaml.bak"), "utf8")).toBe(PYTHON_CONFIG);
    expect(agentmux("config", "--json").code).toBe(0);
    const again = agentmux("config", "migrate", ".agentmux/config.yaml", "--write");
    expect(again.code).toBe(2);
    expect(again.err).toContain(".agentmux/config.yaml.bak exists; nothing was written");
  }, 60_000);

  test("a missing file, and no file at all, are usage errors", () => {
    expect(agentmux("config", "migrate", "nope.yaml")).toMatchObject({ code: 2 });
    const none = agentmux("config", "migrate");
    expect(none.code).toBe(2);
    expect(none.err).toContain("the file to convert is required");
  }, 60_000);
});

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_CONFIG_TEXT, BUILTIN_FILE, builtinLayer, loadConfig } from "../../src/config/load.ts";
import { parseConfigText } from "../../src/config/read.ts";
import { validateLayer } from "../../src/config/validate.ts";
import { AgentmuxError } from "../../src/errors.ts";
import { ConfigFileNotFound, ConfigInvalid, ConfigUnreadable, ConfigYamlSyntax, UnknownProvider } from "../../src/config/errors.ts";
import { buildLaunch } from "../../src/providers/launch.ts";
import { resolveRole } from "../../src/providers/resolve.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

let root: string;
let project: string;
let env: Record<string, string>;

beforeEach(() => {
  root = makeTmpDir("amx-config-");
  project = join(root, "project");
  mkdirSync(join(project, ".agentmux"), { recursive: true });
  env = { HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "xdg") };
});
afterEach(() => removeDir(root));

const write = (path: string, text: string) => {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
};
const projectFile = (text: string, name = "config.yaml") => write(join(project, ".agentmux", name), text);
const userFile = (text: string) => write(join(root, "xdg", "agentmux", "config.yaml"), text);

function loadError(configPath?: string): AgentmuxError {
  try {
    loadConfig({ projectDir: project, env, configPath });
  } catch (e) {
    expect(e).toBeInstanceOf(AgentmuxError);
    return e as AgentmuxError;
  }
  throw new Error("expected loadConfig to throw");
}

describe("layering", () => {
  test("built-in layer alone: nine providers (one per adapter), every leaf built-in", () => {
    const { config, origins, files } = loadConfig({ projectDir: project, env });
    expect(Object.keys(config.providers).sort()).toEqual(["agy", "claude", "codex", "copilot", "cursor", "gemini", "opencode", "qwen", "sim"]);
    expect(config.defaults.provider).toBe("claude");
    expect(files).toEqual(["(built-in)"]);
    expect(origins["defaults.provider"]).toEqual({ layer: "built-in", file: "(built-in)" });
    expect(origins["providers.claude.command"]).toEqual({ layer: "built-in", file: "(built-in)" });
    expect(origins["providers.claude.model_args"]).toEqual({ layer: "built-in", file: "(schema default)" });
    expect(Object.values(origins).every((o) => o.layer === "built-in")).toBe(true);
  });

  test("the built-in layer's fast parse is exactly the checked parse of the same text, and the layer validates on its own", () => {
    const checked = parseConfigText(BUILTIN_CONFIG_TEXT, BUILTIN_FILE);
    expect(builtinLayer()).toEqual(checked);
    expect(JSON.stringify(builtinLayer())).toBe(JSON.stringify(checked));
    expect(() => validateLayer(BUILTIN_FILE, builtinLayer())).not.toThrow();
  });

  test("user → project → --config: scalars override, maps merge, provenance per leaf", () => {
    userFile("defaults:\n  max_review_iterations: 5\n  model: opus\ngithub:\n  draft: false\n");
    projectFile("defaults:\n  max_review_iterations: 7\nproviders:\n  claude:\n    env:\n      EXTRA: x\n");
    const cli = write(join(root, "cli.yaml"), "tmux:\n  width: 300\n");
    const { config, origins, files } = loadConfig({ projectDir: project, env, configPath: cli });
    expect(config.defaults.max_review_iterations).toBe(7);
    expect(config.defaults.model).toBe("opus");
    expect(config.github.draft).toBe(false);
    expect(config.tmux.width).toBe(300);
    expect(config.tmux.height).toBe(64);
    expect(config.providers.claude!.env).toEqual({ DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY: "1", EXTRA: "x" });
    expect(origins["defaults.max_review_iterations"]).toEqual({ layer: "project", file: ".agentmux/config.yaml" });
    expect(origins["defaults.model"]).toEqual({ layer: "user", file: join(root, "xdg", "agentmux", "config.yaml") });
    expect(origins["tmux.width"]).toEqual({ layer: "cli", file: cli });
    expect(origins["tmux.height"]!.layer).toBe("built-in");
    expect(origins["providers.claude.env.EXTRA"]!.layer).toBe("project");
    expect(origins["providers.claude.env.DISABLE_AUTOUPDATER"]!.layer).toBe("built-in");
    expect(files).toEqual(["(built-in)", join(root, "xdg", "agentmux", "config.yaml"), join(project, ".agentmux", "config.yaml"), cli]);
  });

  test("user config defaults to ~/.config and is shown as ~/…", () => {
    delete env.XDG_CONFIG_HOME;
    write(join(root, "home", ".config", "agentmux", "config.yaml"), "github:\n  branch_prefix: agent/\n");
    const { config, origins } = loadConfig({ projectDir: project, env });
    expect(config.github.branch_prefix).toBe("agent/");
    expect(origins["github.branch_prefix"]).toEqual({ layer: "user", file: "~/.config/agentmux/config.yaml" });
  });

  test("lists replace wholesale", () => {
    projectFile("providers:\n  claude:\n    default_role_args: [--verbose]\nsim:\n  scenario: [review_fail_once]\n");
    const { config, origins } = loadConfig({ projectDir: project, env });
    expect(config.providers.claude!.default_role_args).toEqual(["--verbose"]);
    expect(config.providers.claude!.role_args.coder![0]).toBe("--allowedTools");
    expect(config.sim.scenario).toEqual(["review_fail_once"]);
    expect(origins["providers.claude.default_role_args"]!.layer).toBe("project");
  });

  test("null replaces a map and a new provider can be defined", () => {
    projectFile("providers:\n  claude:\n    batch: null\n  aider:\n    command: aider\ndefaults:\n  provider: aider\n");
    const { config, origins } = loadConfig({ projectDir: project, env });
    expect(config.providers.claude!.batch).toBeNull();
    expect(origins["providers.claude.batch"]!.layer).toBe("project");
    expect(origins["providers.claude.batch.args"]).toBeUndefined();
    expect(config.providers.aider!.command).toBe("aider");
    expect(config.providers.aider!.mcp).toBe("none");
    expect(origins["providers.aider.mcp"]).toEqual({ layer: "built-in", file: "(schema default)" });
  });

  test("first existing of config.yaml, config.yml, config.json", () => {
    projectFile('{"defaults": {"max_review_iterations": 2}}', "config.json");
    expect(loadConfig({ projectDir: project, env }).config.defaults.max_review_iterations).toBe(2);
    projectFile("defaults:\n  max_review_iterations: 4\n", "config.yml");
    expect(loadConfig({ projectDir: project, env }).config.defaults.max_review_iterations).toBe(4);
    projectFile("defaults:\n  max_review_iterations: 6\n", "config.yaml");
    expect(loadConfig({ projectDir: project, env }).config.defaults.max_review_iterations).toBe(6);
  });

  test("an empty file is {}", () => {
    projectFile("");
    userFile("# only a comment\n");
    const { config } = loadConfig({ projectDir: project, env });
    expect(config.defaults.provider).toBe("claude");
  });
});

describe("errors name the file and the key path", () => {
  test("unknown key", () => {
    projectFile("roles:\n  coder:\n    provdier: codex\n");
    const e = loadError();
    expect(e).toBeInstanceOf(ConfigInvalid);
    expect(e.data).toEqual({ issues: [{ file: ".agentmux/config.yaml", problem: "roles.coder.provdier: unknown key — did you mean provider?" }] });
    expect(e.exitCode).toBe(2);
    expect(e.message).toBe(".agentmux/config.yaml: roles.coder.provdier: unknown key — did you mean provider?");
  });

  test("unknown top-level key and unknown role", () => {
    userFile("provider: claude\nroles:\n  codr: {}\n");
    const e = loadError();
    const file = join(root, "xdg", "agentmux", "config.yaml");
    expect(e.message).toContain(`${file}: provider: unknown key`);
    expect(e.message).toContain(`${file}: roles.codr: unknown key — did you mean coder?`);
  });

  test("unknown keys get the closest known key at their place, and nothing when none is close", () => {
    projectFile("defaults:\n  max_review_iteration: 3\nproviders:\n  claude:\n    comand: x\n    zzzzzz: 1\n");
    const m = loadError().message;
    expect(m).toContain(".agentmux/config.yaml: defaults.max_review_iteration: unknown key — did you mean max_review_iterations?");
    expect(m).toContain(".agentmux/config.yaml: providers.claude.comand: unknown key — did you mean command?");
    expect(m).toMatch(/providers\.claude\.zzzzzz: unknown key$/m);
  });

  // a check written with cmd: was told "did you mean cwd?", one edit away, where it meant command
  test("an abbreviated key gets the key it abbreviates, not a short one an edit away", () => {
    projectFile("checks:\n  test:\n    cmd: npm test\n");
    expect(loadError().message).toContain(".agentmux/config.yaml: checks.test.cmd: unknown key — did you mean command?");
  });

  test("wrong type", () => {
    projectFile('defaults:\n  max_review_iterations: "3"\n');
    expect(loadError().message).toBe(".agentmux/config.yaml: defaults.max_review_iterations: expected number, got string");
  });

  test("wrong type inside a provider, in the --config layer", () => {
    const cli = write(join(root, "bad.yaml"), "providers:\n  codex:\n    submit:\n      keys: Enter\n");
    expect(loadError(cli).message).toBe(`${cli}: providers.codex.submit.keys: expected a list, got a string; write it as a list: [Enter]`);
  });

  test("YAML syntax error: file, line, column", () => {
    projectFile("defaults:\n  provider: claude\n   model: [x\n");
    const e = loadError();
    expect(e).toBeInstanceOf(ConfigYamlSyntax);
    expect(e.data).toEqual({ file: ".agentmux/config.yaml", line: 2, col: 13, detail: "Nested mappings are not allowed in compact mappings" });
    expect(e.message).toBe(".agentmux/config.yaml:2:13: YAML syntax error: Nested mappings are not allowed in compact mappings");
    expect(e.exitCode).toBe(2);
    projectFile("defaults:\n  provider: claude\ndefaults:\n  model: x\n");
    expect(loadError().message).toBe(".agentmux/config.yaml:3:1: YAML syntax error: Map keys must be unique");
    // at any depth, in a map inside a list too (checked in one pass, not key against key)
    projectFile("providers:\n  mine:\n    command: x\n    trust:\n      - detect: a\n        detect: b\n");
    expect(loadError().message).toBe(".agentmux/config.yaml:6:9: YAML syntax error: Map keys must be unique");
    projectFile("");
    const json = write(join(root, "c.json"), '{"defaults": {\n  "model": "x",\n  "provider" "claude"}}');
    expect(loadError(json).message).toMatch(new RegExp(`^${json}:3:\\d+: YAML syntax error: `));
  });

  test("a top level that is not a mapping", () => {
    projectFile("- a\n- b\n");
    expect(loadError().message).toBe(".agentmux/config.yaml: (top level): must be a mapping of keys to values, got list");
  });

  test("unknown provider lists the valid ones", () => {
    projectFile("roles:\n  reviewer_logic:\n    provider: gpt\n");
    const e = loadError();
    expect(e).toBeInstanceOf(UnknownProvider);
    expect(e.data).toEqual({
      refs: [{ file: ".agentmux/config.yaml", key: "roles.reviewer_logic.provider", name: "gpt" }],
      valid: ["agy", "claude", "codex", "copilot", "cursor", "gemini", "opencode", "qwen", "sim"],
    });
    expect(e.message).toBe(
      '.agentmux/config.yaml: roles.reviewer_logic.provider: unknown provider "gpt" (valid providers: agy, claude, codex, copilot, cursor, gemini, opencode, qwen, sim)',
    );
    projectFile("defaults:\n  provider: nope\n");
    expect(loadError().message).toContain('.agentmux/config.yaml: defaults.provider: unknown provider "nope"');
  });

  test("version other than 2", () => {
    projectFile("version: 3\n");
    expect(loadError().message).toBe(".agentmux/config.yaml: version: must be 2 (got 3)");
    projectFile("version: 1\n"); // the Python agentmux's format
    expect(loadError().message).toBe(
      ".agentmux/config.yaml: version: must be 2 (got 1) — version 1 is the Python agentmux's format; convert the file with: agentmux config migrate .agentmux/config.yaml",
    );
  });

  test("a new provider without a command names the file that defined it", () => {
    projectFile("providers:\n  aider:\n    model_flag: --model\n");
    expect(loadError().message).toBe(".agentmux/config.yaml: providers.aider.command: expected string, got nothing");
  });

  test("--config pointing nowhere", () => {
    const e = loadError(join(root, "missing.yaml"));
    expect(e).toBeInstanceOf(ConfigFileNotFound);
    expect(e.data).toEqual({ file: join(root, "missing.yaml") });
    expect(e.message).toBe(`${join(root, "missing.yaml")}: file not found`);
    expect(e.exitCode).toBe(2);
  });

  test("unsupported extension", () => {
    const f = write(join(root, "conf.toml"), "x = 1\n");
    expect(loadError(f).message).toContain('unsupported config file type ".toml"');
  });

  test("a config file over the size limit is refused before it is read, naming the file and its size", () => {
    const f = write(join(root, "huge.yaml"), "version: 2\n");
    truncateSync(f, 17 * 1024 * 1024); // sparse: no disk used
    const e = loadError(f);
    expect(e).toBeInstanceOf(ConfigUnreadable);
    expect(e.data).toEqual({ file: f, reason: `is ${17 * 1024 * 1024} bytes; the limit is ${16 * 1024 * 1024}` });
  });

  test("__proto__ as a provider name is an error naming file and key (it was dropped silently)", () => {
    projectFile("providers:\n  __proto__:\n    command: echo\nroles:\n  coder:\n    provider: __proto__\n");
    const e = loadError();
    expect(e).toBeInstanceOf(ConfigInvalid);
    expect(e.data).toEqual({
      issues: [{ file: ".agentmux/config.yaml", problem: 'providers.__proto__: "__proto__" cannot be a key or a name (JavaScript reserves it); rename it' }],
    });
    projectFile("");
    const json = write(join(root, "c.json"), '{"providers": {"mine": {"command": "x", "env": {"__proto__": "y"}}}}');
    expect(loadError(json).message).toBe(`${json}: providers.mine.env.__proto__: "__proto__" cannot be a key or a name (JavaScript reserves it); rename it`);
  });
});

describe("AGENTMUX_SIM_SCENARIO", () => {
  const simEnv = (scenario: string) => ({ ...env, AGENTMUX_SIM_SCENARIO: scenario });
  const simulatedPlanner = (config: ReturnType<typeof loadConfig>["config"]) =>
    buildLaunch(resolveRole(config, "planner"), {
      sessionDir: "/s",
      projectDir: project,
      workDir: project,
      agentKey: "planner",
      selfCommand: ["/bin/agentmux"],
    }).env;

  test("with no sim.scenario in any config file, the variable is the scenario the simulated agents get", () => {
    projectFile("version: 2\ndefaults: { provider: sim }\n");
    const { config, originOf } = loadConfig({ projectDir: project, env: simEnv("permission=planner, crash_once=coder") });
    expect(config.sim.scenario).toEqual(["permission=planner", "crash_once=coder"]);
    expect(originOf("sim.scenario")).toEqual({ layer: "env", file: "AGENTMUX_SIM_SCENARIO" });
    expect(simulatedPlanner(config).AGENTMUX_SIM_SCENARIO).toBe("permission=planner,crash_once=coder");
  });

  test("a config file's sim.scenario wins, even an empty one", () => {
    projectFile("version: 2\ndefaults: { provider: sim }\nsim: { scenario: [review_fail_once] }\n");
    expect(loadConfig({ projectDir: project, env: simEnv("permission=planner") }).config.sim.scenario).toEqual(["review_fail_once"]);
    projectFile("version: 2\ndefaults: { provider: sim }\nsim: { scenario: [] }\n");
    const { config, originOf } = loadConfig({ projectDir: project, env: simEnv("permission=planner") });
    expect(config.sim.scenario).toEqual([]);
    expect(originOf("sim.scenario").layer).toBe("project");
  });
});

import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { BINARY, makeTmpDir, removeDir } from "../helpers/tmp.ts";

let root: string;
let project: string;

beforeEach(() => {
  root = makeTmpDir("amx-config-cli-");
  project = join(root, "project");
  mkdirSync(join(project, ".agentmux"), { recursive: true });
});
afterEach(() => removeDir(root));

function agentmux(...args: string[]) {
  const p = Bun.spawnSync([BINARY, ...args], {
    cwd: project,
    env: { PATH: process.env.PATH ?? "", HOME: join(root, "home"), XDG_CONFIG_HOME: join(root, "xdg"), TERM: "xterm-256color" },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}

describe("agentmux config (compiled binary, built-in config embedded)", () => {
  test("prints YAML with the layer of every leaf", () => {
    writeFileSync(join(project, ".agentmux", "config.yaml"), "defaults:\n  max_review_iterations: 5\nroles:\n  coder:\n    provider: codex\n");
    const r = agentmux("config");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("  max_review_iterations: 5 # project: .agentmux/config.yaml\n");
    expect(r.stdout).toContain("  provider: claude # built-in\n");
    expect(r.stdout).toContain("    provider: codex # project: .agentmux/config.yaml\n");
    const parsed = parse(r.stdout);
    expect(parsed.defaults.max_review_iterations).toBe(5);
    expect(parsed.providers.sim.command).toBe("@self");
    expect(parsed.providers.claude.ready.pattern).toBe("^❯(?:[ \\u00a0]*|\\u00a0(?!\\[Pasted text).*)\\n─+\\n(?!.*esc to interrupt).*$");
  });

  test("--json prints {config, origins}; --config is the last layer", () => {
    const extra = join(root, "extra.yaml");
    writeFileSync(extra, "tmux:\n  socket: mine\n");
    const r = agentmux("config", "--json", "--config", extra);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(["config", "origins"]);
    expect(out.config.tmux.socket).toBe("mine");
    expect(out.origins["tmux.socket"]).toEqual({ layer: "cli", file: extra });
    expect(out.origins["providers.codex.command"]).toEqual({ layer: "built-in", file: "(built-in)" });
  });

  test("a bad config exits 2 naming the file and key, printing nothing on stdout", () => {
    writeFileSync(join(project, ".agentmux", "config.yaml"), "roles:\n  coder:\n    provdier: codex\n");
    const r = agentmux("config");
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(".agentmux/config.yaml: roles.coder.provdier: unknown key");
  });
});

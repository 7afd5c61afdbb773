import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { privateMcpDir } from "../../src/providers/mcp.ts";
import { UnknownProvider } from "../../src/config/errors.ts";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load.ts";
import { buildLaunch, writeLaunchFiles } from "../../src/providers/launch.ts";
import { resolveRole, toolNameFor, toolNameForAgent } from "../../src/providers/resolve.ts";
import { preTrust } from "../../src/providers/trust.ts";
import type { Config } from "../../src/schema/config.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

let root: string;
let config: Config;
beforeEach(() => {
  root = makeTmpDir("amx-providers-");
  config = loadConfig({ projectDir: root, env: { HOME: join(root, "home") } }).config;
});
afterEach(() => removeDir(root));

describe("resolveRole and tool names", () => {
  test("unknown provider lists the valid ones", () => {
    config.roles.coder = { provider: "gpt", model: null, args: null };
    let err: unknown;
    try {
      resolveRole(config, "coder");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UnknownProvider);
    expect((err as InstanceType<typeof UnknownProvider>).data).toEqual({
      refs: [{ key: "roles.coder.provider", name: "gpt" }],
      valid: ["agy", "claude", "codex", "copilot", "cursor", "gemini", "opencode", "qwen", "sim"],
    });
    expect((err as Error).message).toBe(
      'roles.coder.provider: unknown provider "gpt" (valid providers: agy, claude, codex, copilot, cursor, gemini, opencode, qwen, sim)',
    );
  });

  test("toolNameFor per CLI", () => {
    expect(toolNameFor("claude", "submit_done")).toBe("mcp__agentmux__submit_done");
    expect(toolNameFor("gemini", "submit_done")).toBe("mcp_agentmux_submit_done");
    expect(toolNameFor("opencode", "submit_done")).toBe("agentmux_submit_done");
    expect(toolNameFor("qwen", "submit_review")).toBe("mcp__agentmux__submit_review");
    expect(toolNameFor("codex", "submit_done")).toBe("submit_done");
    expect(toolNameFor("sim", "submit_plan")).toBe("submit_plan");
    config.providers.mine = { ...config.providers.gemini!, command: "my-gemini" };
    config.roles.coder = { provider: "mine", model: null, args: null };
    expect(toolNameForAgent(resolveRole(config, "coder"), "submit_done")).toBe("mcp_agentmux_submit_done");
  });
});

describe("preTrust", () => {
  test("codex and gemini per invocation; copilot, qwen, opencode, sim: nothing to write", () => {
    const w = join(root, "wt");
    expect(preTrust(resolveRole({ ...config, defaults: { ...config.defaults, provider: "codex" } }, "coder"), w, root).argv).toEqual([
      "-c",
      `projects={"${w}"={trust_level="trusted"}}`,
    ]);
    expect(preTrust(resolveRole({ ...config, defaults: { ...config.defaults, provider: "gemini" } }, "coder"), w, root).env).toEqual({
      GEMINI_CLI_TRUST_WORKSPACE: "true",
    });
    for (const p of ["copilot", "qwen", "opencode", "sim", "claude"]) {
      const t = preTrust(resolveRole({ ...config, defaults: { ...config.defaults, provider: p } }, "coder"), w, root);
      expect({ p, argv: t.argv, env: t.env, files: t.files }).toEqual({ p, argv: [], env: {}, files: [] });
    }
  });

  test("claude pre-trust is opt-in and keeps the rest of ~/.claude.json", () => {
    const home = join(root, "home");
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, ".claude.json"), JSON.stringify({ hasCompletedOnboarding: true, projects: { "/other": { hasTrustDialogAccepted: true } } }));
    config.providers.claude!.pre_trust = true;
    const agent = resolveRole(config, "coder");
    const t = preTrust(agent, "/work/repo", home);
    expect(t.files).toHaveLength(1);
    expect(JSON.parse(t.files[0]!.content)).toEqual({
      hasCompletedOnboarding: true,
      projects: { "/other": { hasTrustDialogAccepted: true }, "/work/repo": { hasTrustDialogAccepted: true } },
    });
    writeFileSync(join(home, ".claude.json"), t.files[0]!.content);
    expect(preTrust(agent, "/work/repo", home).files).toEqual([]);
    writeFileSync(join(home, ".claude.json"), "{not json");
    const bad = preTrust(agent, "/work/repo", home);
    expect(bad.files).toEqual([]);
    expect(bad.note).toContain("not valid JSON");
  });
});

describe("writeLaunchFiles", () => {
  test("writes once, skips identical content, rewrites on change; a file holding a token is always 0600, others keep their mode", () => {
    const session = join(root, "session");
    const token = "ab".repeat(32);
    const spec = buildLaunch(resolveRole(config, "coder"), {
      sessionDir: session,
      projectDir: root,
      workDir: root,
      agentKey: "coder-1",
      selfCommand: ["/bin/agentmux"],
      mcp: { url: "http://127.0.0.1:1/mcp", token },
      home: root,
    });
    const path = join(privateMcpDir(session, root), "coder-1.claude.json");
    expect(writeLaunchFiles(spec)).toEqual([path]);
    expect(JSON.parse(readFileSync(path, "utf8")).mcpServers.agentmux.headers.Authorization).toBe(`Bearer ${token}`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const mtime = statSync(path).mtimeMs;
    expect(writeLaunchFiles(spec)).toEqual([]);
    expect(statSync(path).mtimeMs).toBe(mtime);
    chmodSync(path, 0o644);
    const changed = { files: [{ ...spec.files[0]!, content: spec.files[0]!.content.replace(token, "cd".repeat(32)) }] };
    expect(writeLaunchFiles(changed)).toEqual([path]);
    expect(readFileSync(path, "utf8")).toContain("cd".repeat(32));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const plain = join(root, "plain.json");
    writeLaunchFiles({ files: [{ path: plain, content: "1" }] });
    chmodSync(plain, 0o640);
    writeLaunchFiles({ files: [{ path: plain, content: "2" }] });
    expect(statSync(plain).mode & 0o777).toBe(0o640);
    expect(existsSync(join(root, ".claude.json"))).toBe(false);
  });
});

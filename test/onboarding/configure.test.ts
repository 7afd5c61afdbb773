import { afterEach, expect, test } from "bun:test";
import { ConfigInvalid } from "../../src/config/errors.ts";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { loadConfig } from "../../src/config/load.ts";
import { applyRoleChanges } from "../../src/onboarding/configure.ts";
import { writeConfigChecked } from "../../src/onboarding/project-config.ts";
import { removeDir } from "../helpers/tmp.ts";
import { agentmux, sandbox, type Sandbox } from "./helpers.ts";

let sb: Sandbox;
afterEach(() => removeDir(sb.root));

const COMMENTED = `# Team config — reviewed in PR #12
version: 2

# who runs what
defaults:
  provider: claude # most of us have it
  max_review_iterations: 4

roles:
  # the architect needs the big model
  architect:
    model: opus # expensive, worth it
  coder:
    provider: codex

github:
  draft: false # we review in the open
`;

const cfgPath = (sb: Sandbox) => join(sb.repo, ".agentmux", "config.yaml");
const keysInOrder = (text: string) =>
  text
    .split("\n")
    .filter((l) => /^\s*[\w-]+:/.test(l))
    .map((l) => l.trim().split(":")[0]);

test("configure edits in place: every comment and the key order survive; new keys are appended", async () => {
  sb = await sandbox();
  mkdirSync(join(sb.repo, ".agentmux"));
  writeFileSync(cfgPath(sb), COMMENTED);
  const r = agentmux(sb, ["configure", "--role", "coder", "--provider", "gemini", "--model", "gemini-2.5-pro"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("wrote .agentmux/config.yaml");
  const out = readFileSync(cfgPath(sb), "utf8");
  for (const line of COMMENTED.split("\n").filter((l) => l.includes("#"))) expect(out).toContain(line);
  expect(out).toContain("    provider: gemini\n    model: gemini-2.5-pro\n");
  expect(keysInOrder(out)).toEqual([
    "version",
    "defaults",
    "provider",
    "max_review_iterations",
    "roles",
    "architect",
    "model",
    "coder",
    "provider",
    "model",
    "github",
    "draft",
  ]);
  expect(loadConfig({ projectDir: sb.repo, env: sb.env }).config.roles.coder).toEqual({ provider: "gemini", model: "gemini-2.5-pro", args: null });

  // "default" removes an override, and a map left empty goes with it; comments elsewhere stay.
  expect(agentmux(sb, ["configure", "--role", "architect", "--model", "default"]).code).toBe(0);
  const after = readFileSync(cfgPath(sb), "utf8");
  expect(parse(after).roles.architect).toBeUndefined();
  expect(after).toContain("# Team config — reviewed in PR #12\n");
  expect(after).toContain("  draft: false # we review in the open\n");
  expect(after).toContain("  provider: claude # most of us have it\n");
});

test("configure creates the file with the schema line when missing; a repeat is a no-op", async () => {
  sb = await sandbox();
  expect(agentmux(sb, ["configure", "--role", "reviewer_logic", "--provider", "sim"]).code).toBe(0);
  const text = readFileSync(cfgPath(sb), "utf8");
  expect(text).toBe("# yaml-language-server: $schema=./config.schema.json\nversion: 2\nroles:\n  reviewer_logic:\n    provider: sim\n");
  const again = agentmux(sb, ["configure", "--role", "reviewer_logic", "--provider", "sim"]);
  expect(again.stdout).toContain("already had these values");
  expect(readFileSync(cfgPath(sb), "utf8")).toBe(text);
});

test("unknown role or provider: exit 2 listing the valid ones, file unchanged", async () => {
  sb = await sandbox();
  mkdirSync(join(sb.repo, ".agentmux"));
  writeFileSync(cfgPath(sb), COMMENTED);
  const role = agentmux(sb, ["configure", "--role", "reviewer", "--provider", "codex"]);
  expect(role.code).toBe(2);
  expect(role.stderr).toContain('unknown role "reviewer"');
  expect(role.stderr).toContain("reviewer_logic, reviewer_quality, reviewer_expert");
  const prov = agentmux(sb, ["configure", "--role", "coder", "--provider", "gpt"]);
  expect(prov.code).toBe(2);
  expect(prov.stderr).toContain('unknown provider "gpt"');
  expect(prov.stderr).toContain("agy, claude, codex, copilot, cursor, gemini, opencode, qwen, sim");
  const none = agentmux(sb, ["configure", "--role", "coder"]);
  expect(none.code).toBe(2);
  const notty = agentmux(sb, ["configure"]);
  expect(notty.code).toBe(2);
  expect(notty.stderr).toContain("not a terminal");
  expect(readFileSync(cfgPath(sb), "utf8")).toBe(COMMENTED);
});

test("a result that does not validate is refused with file and key, and nothing is written", async () => {
  sb = await sandbox();
  mkdirSync(join(sb.repo, ".agentmux"));
  writeFileSync(cfgPath(sb), COMMENTED);
  let err: unknown;
  try {
    writeConfigChecked(cfgPath(sb), COMMENTED + "tmux:\n  width: 20\n", sb.env);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(ConfigInvalid);
  const issue = (err as InstanceType<typeof ConfigInvalid>).data.issues[0]!;
  expect(issue.file).toBe(".agentmux/config.yaml");
  expect(issue.problem).toStartWith("tmux.width");
  // A config made broken by hand: configure reports it and leaves it alone.
  writeFileSync(cfgPath(sb), COMMENTED.replace("max_review_iterations: 4", "max_review_iterations: many"));
  expect(() => applyRoleChanges(sb.repo, [{ role: "coder", model: "x" }], sb.env)).toThrow("defaults.max_review_iterations");
  expect(readFileSync(cfgPath(sb), "utf8")).toContain("max_review_iterations: many");
});

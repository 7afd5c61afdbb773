import { expect, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import { binaryScope } from "../helpers/binary-scope.ts";
import { git, processesMentioning, runBinary } from "./harness.ts";
import { simProject } from "./sim-project.ts";

/** #26.1: a check that cannot run stops `agentmux run` before any session, branch or agent exists. */
const scope = binaryScope();

test("a check whose program is not found (or whose folder is missing) is a config error before anything starts", async () => {
  const repo = simProject({ dirs: scope.dirs }, 0, []);
  const config = join(repo, "..", "checks.yaml");
  writeFileSync(
    config,
    stringify({ checks: { test: { command: "true" }, lint: { command: "no-such-linter-xyz --fix" }, api: { command: "true", cwd: "services/api" } } }),
  );
  const branches = git(repo, "branch", "--list");
  const r = await runBinary(scope.bin, ["run", "Add alpha", "--ci", "--config", config], { cwd: repo, socket: scope.socket() });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("2 checks cannot run:");
  expect(r.stderr).toContain("checks.lint.command: no-such-linter-xyz was not found on PATH or in the repository root");
  expect(r.stderr).toContain(`checks.api.cwd: its folder services/api does not exist in ${repo}`);
  const sessions = join(repo, ".agentmux/.sessions");
  expect(existsSync(sessions) ? readdirSync(sessions).filter((n) => !n.startsWith(".")) : []).toEqual([]);
  expect(git(repo, "branch", "--list")).toBe(branches);
  expect(processesMentioning(repo).filter((p) => p.includes("sim-agent"))).toEqual([]);
}, 60_000);

import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { detectChecks } from "../../src/onboarding/detect-checks.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { agentmux, fakeCli, sandbox, type Sandbox } from "./helpers.ts";

/** #26.1: `agentmux init` proposes the checks a project's files suggest. */
const root = makeTmpDir("amx-detect-checks-");
const bin = join(root, "bin");
mkdirSync(bin);
for (const tool of ["npm", "pnpm", "bun", "cargo", "go", "make", "python3", "uv", "ruff"]) {
  writeFileSync(join(bin, tool), "#!/bin/sh\nexit 0\n");
  chmodSync(join(bin, tool), 0o755);
}
const env = { PATH: bin };
const sandboxes: Sandbox[] = [];
afterAll(() => {
  removeDir(root);
  for (const sb of sandboxes) removeDir(sb.root);
});

function project(name: string, files: Record<string, string>): string {
  const dir = join(root, name);
  for (const [f, text] of Object.entries(files)) {
    mkdirSync(join(dir, f, ".."), { recursive: true });
    writeFileSync(join(dir, f), text);
  }
  return dir;
}
const scripts = (s: Record<string, string>) => JSON.stringify({ name: "app", scripts: s });

test("package.json scripts through the lockfile's package manager; npm's placeholder test is not a test", () => {
  expect(
    detectChecks(
      project("npm", { "package.json": scripts({ test: "jest", lint: "eslint .", typecheck: "tsc --noEmit", build: "vite build", dev: "vite" }) }),
      env,
    ),
  ).toEqual({
    kinds: ["npm"],
    checks: { test: "npm test", lint: "npm run lint", typecheck: "npm run typecheck", build: "npm run build" },
  });
  expect(detectChecks(project("pnpm", { "package.json": scripts({ test: "vitest run", "check-types": "tsc" }), "pnpm-lock.yaml": "" }), env).checks).toEqual({
    test: "pnpm run test",
    typecheck: "pnpm run check-types",
  });
  expect(detectChecks(project("bun", { "package.json": scripts({ test: "bun test" }), "bun.lock": "" }), env).checks).toEqual({ test: "bun run test" });
  expect(detectChecks(project("placeholder", { "package.json": scripts({ test: 'echo "Error: no test specified" && exit 1' }) }), env).checks).toEqual({});
});

test("Python (pytest, ruff; uv when locked), Rust, Go, Makefile targets; a taken name gets the kind", () => {
  expect(detectChecks(project("py", { "pyproject.toml": "[tool.pytest.ini_options]\n[tool.ruff]\n" }), env)).toEqual({
    kinds: ["python"],
    checks: { test: "python3 -m pytest -q", lint: "ruff check ." },
  });
  expect(detectChecks(project("uv", { "pyproject.toml": "[tool.ruff]\n", "uv.lock": "", "tests/test_a.py": "" }), env).checks).toEqual({
    test: "uv run pytest -q",
    lint: "uv run ruff check .",
  });
  expect(detectChecks(project("rust", { "Cargo.toml": "" }), env).checks).toEqual({ test: "cargo test", lint: "cargo clippy --all-targets" });
  expect(detectChecks(project("go", { "go.mod": "", Makefile: "test:\n\tgo test ./...\ncheck: lint\n\tgo vet\nVAR := 1\n" }), env)).toEqual({
    kinds: ["go", "make"],
    checks: { test: "go test ./...", lint: "go vet ./...", check: "make check" },
  });
  expect(detectChecks(project("mixed", { "package.json": scripts({ test: "jest" }), "go.mod": "" }), env).checks).toEqual({
    test: "npm test",
    "go-test": "go test ./...",
    lint: "go vet ./...",
  });
});

test("a check whose program is not on PATH is not proposed", () => {
  expect(detectChecks(project("nopath", { "Cargo.toml": "", "package.json": scripts({ test: "jest" }) }), { PATH: join(root, "empty") }).checks).toEqual({});
});

test("init --defaults writes the detected checks once and says so; a project with checks keeps them", async () => {
  const sb = await sandbox();
  sandboxes.push(sb);
  fakeCli(sb, "claude", "2.0.1 (Claude Code)");
  fakeCli(sb, "npm", "10.0.0");
  writeFileSync(join(sb.repo, "package.json"), scripts({ test: "jest", lint: "eslint ." }));
  const r = agentmux(sb, ["init", "--defaults"]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("Checks agentmux runs itself after the coders (checks:, see agentmux checks): test: npm test; lint: npm run lint");
  const config = () => parse(readFileSync(join(sb.repo, ".agentmux/config.yaml"), "utf8"));
  expect(config().checks).toEqual({ test: { command: "npm test" }, lint: { command: "npm run lint" } });
  const again = agentmux(sb, ["init", "--defaults"]);
  expect(again.stdout).toContain("unchanged  .agentmux/config.yaml");
  expect(again.stdout).not.toContain("Checks agentmux runs");
  expect(config().checks).toEqual({ test: { command: "npm test" }, lint: { command: "npm run lint" } });
}, 60_000);

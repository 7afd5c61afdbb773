import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { preflightChecks } from "../checks/preflight.ts";
import { CheckSpec } from "../schema/checks.ts";

/** What `agentmux init` proposes for `checks:`: name → command, and the project kinds it read them from. */
export type DetectedChecks = { kinds: string[]; checks: Record<string, string> };

const NPM_NO_TEST = /no test specified/;

function read(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

function packageScripts(dir: string): Record<string, string> {
  try {
    const scripts = JSON.parse(read(join(dir, "package.json")) ?? "{}").scripts;
    return scripts && typeof scripts === "object" ? (scripts as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function javascript(dir: string, add: (name: string, command: string) => void): string | null {
  if (!existsSync(join(dir, "package.json"))) return null;
  const has = (f: string) => existsSync(join(dir, f));
  const pm = has("bun.lock") || has("bun.lockb") ? "bun" : has("pnpm-lock.yaml") ? "pnpm" : has("yarn.lock") ? "yarn" : "npm";
  const scripts = packageScripts(dir);
  const run = (script: string) => (pm === "npm" && script === "test" ? "npm test" : `${pm} run ${script}`);
  if (scripts.test && !NPM_NO_TEST.test(scripts.test)) add("test", run("test"));
  if (scripts.lint) add("lint", run("lint"));
  const types = ["typecheck", "type-check", "check-types", "types", "tsc"].find((s) => scripts[s]);
  if (types) add("typecheck", run(types));
  if (scripts.build) add("build", run("build"));
  return pm;
}

function python(dir: string, add: (name: string, command: string) => void): string | null {
  const pyproject = read(join(dir, "pyproject.toml")) ?? "";
  const has = (f: string) => existsSync(join(dir, f));
  const isPython = pyproject !== "" || has("setup.py") || has("requirements.txt") || has("pytest.ini") || has("setup.cfg");
  if (!isPython) return null;
  const uv = has("uv.lock");
  const py = uv ? "uv run" : has(".venv/bin/python") ? ".venv/bin/python -m" : "python3 -m";
  const pytest =
    has("pytest.ini") || has("conftest.py") || /\[tool\.pytest/.test(pyproject) || /\bpytest\b/.test(read(join(dir, "requirements.txt")) ?? "") || has("tests");
  if (pytest) add("test", `${py} pytest -q`);
  if (has("ruff.toml") || has(".ruff.toml") || /\[tool\.ruff/.test(pyproject))
    add("lint", `${uv ? "uv run ruff" : py === "python3 -m" ? "ruff" : `${py} ruff`} check .`);
  return uv ? "uv" : "python";
}

function makeTargets(dir: string): string[] {
  const text = read(join(dir, "Makefile")) ?? read(join(dir, "makefile")) ?? "";
  return ["test", "lint", "check"].filter((t) => new RegExp(`^${t}\\s*:(?!=)`, "m").test(text));
}

/**
 * The checks a project's files suggest: package.json scripts (test, lint, a type check, build;
 * run with the lockfile's package manager), pytest and ruff, cargo test and clippy, go test and
 * go vet, Makefile targets test/lint/check when nothing else gave that name. A later kind's name
 * that is taken already gets the kind as a prefix (`go-test`). Only checks whose program is on
 * `PATH` are proposed: a check that cannot run would stop every run before it starts.
 */
export function detectChecks(dir: string, env: Record<string, string | undefined> = process.env): DetectedChecks {
  const out: DetectedChecks = { kinds: [], checks: {} };
  let kind = "";
  const add = (name: string, command: string) => {
    const key = out.checks[name] === undefined ? name : `${kind}-${name}`;
    if (out.checks[key] === undefined) out.checks[key] = command;
  };
  const found = (k: string | null) => {
    if (k) out.kinds.push(k);
  };
  kind = "js";
  found(javascript(dir, add));
  kind = "python";
  found(python(dir, add));
  kind = "rust";
  if (existsSync(join(dir, "Cargo.toml"))) {
    found("cargo");
    add("test", "cargo test");
    add("lint", "cargo clippy --all-targets");
  }
  kind = "go";
  if (existsSync(join(dir, "go.mod"))) {
    found("go");
    add("test", "go test ./...");
    add("lint", "go vet ./...");
  }
  const targets = makeTargets(dir).filter((t) => out.checks[t] === undefined);
  if (targets.length) found("make");
  for (const t of targets) out.checks[t] = `make ${t}`;
  const specs = Object.fromEntries(Object.entries(out.checks).map(([n, command]) => [n, CheckSpec.parse({ command })]));
  for (const p of preflightChecks({ checks: specs }, dir, env)) delete out.checks[p.check];
  return out;
}

/** `test: npm test; lint: npm run lint` */
export const checksSummary = (d: DetectedChecks): string =>
  Object.entries(d.checks)
    .map(([n, c]) => `${n}: ${c}`)
    .join("; ");

/**
 * #28: docs/migrating.md exists, the README links it, and what it states about agentmux's own
 * settings is what the built-in config and the commands say (it changes with them, or fails here).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resume } from "../../src/cli/specs/sessions.ts";
import { builtinLayer } from "../../src/config/load.ts";
import { COMMAND_TEMPLATES } from "../../src/prompts/templates.ts";
import { PYTHON_BUILTIN_PROVIDERS } from "../../src/config/python-defaults.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

const doc = readFileSync(join(REPO_ROOT, "docs/migrating.md"), "utf8");
type P = { default_model: string | null; default_role_args?: string[]; model_args?: Record<string, string[]>; role_args?: Record<string, string[]> };
const providers = (builtinLayer() as { providers: Record<string, P> }).providers;

test("the README links docs/migrating.md", () => {
  expect(readFileSync(join(REPO_ROOT, "README.md"), "utf8")).toContain("](docs/migrating.md)");
});

test("every CLI the Python tool drives is built in, as the page says", () => {
  expect(doc).toContain("All seven CLIs the Python tool drives (claude, codex, gemini, opencode, copilot, cursor, qwen) are\nbuilt into agentmux");
  for (const name of Object.keys(PYTHON_BUILTIN_PROVIDERS)) expect(Object.keys(providers)).toContain(name);
});

test("no built-in provider names a default model: the CLI's own default applies", () => {
  expect(doc).toContain("**the CLI uses its own default model**");
  for (const [name, p] of Object.entries(providers)) expect([name, p.default_model ?? null]).toEqual([name, null]);
});

test("copilot: --allow-all, no reasoning effort; opencode: no --agent", () => {
  expect(doc).toContain("| copilot permissions | `--allow-all` | `--allow-all`");
  expect(providers.copilot!.default_role_args).toContain("--allow-all");
  expect(Object.keys(providers.copilot!.model_args ?? {})).toEqual([]);
  const opencodeArgs = [...(providers.opencode!.default_role_args ?? []), ...Object.values(providers.opencode!.role_args ?? {}).flat()];
  expect(opencodeArgs).not.toContain("--agent");
});

test("the command extensions and the resume flag it names exist", () => {
  for (const c of ["change", "fix", "summary", "review-followup"]) expect(COMMAND_TEMPLATES.has(c)).toBe(true);
  expect(COMMAND_TEMPLATES.has("review_followup")).toBe(false);
  expect(doc).toContain("agentmux resume <id> --from-python");
  expect(Object.keys(resume.flags)).toContain("from-python");
});

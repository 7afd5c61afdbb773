import { existsSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { AGENTMUX_DIR } from "../protocol/paths.ts";

/** The instructions file each agent CLI reads from the repository root. */
export const INSTRUCTION_FILES: Record<string, string> = {
  claude: "CLAUDE.md",
  codex: "AGENTS.md",
  opencode: "AGENTS.md",
  copilot: "AGENTS.md",
  gemini: "GEMINI.md",
  qwen: "QWEN.md",
};
const ALL_INSTRUCTION_FILES = [...new Set(Object.values(INSTRUCTION_FILES))];

/** Files the chosen providers read, when the project has none of them yet (else nothing). */
export function instructionFilesToOffer(projectDir: string, providers: string[]): string[] {
  if (ALL_INSTRUCTION_FILES.some((f) => existsSync(join(projectDir, f)))) return [];
  return [...new Set(providers.map((p) => INSTRUCTION_FILES[p]).filter((f): f is string => !!f))];
}

export function instructionTemplate(file: string): string {
  return [
    `# ${file.replace(/\.md$/, "")} — instructions for AI coding agents in this repository`,
    "",
    "agentmux's agents read this file. Replace each TODO with the facts of this project.",
    "",
    "## Build command",
    "TODO: e.g. `npm run build`",
    "",
    "## Test command",
    "TODO: e.g. `npm test`",
    "",
    "## Lint command",
    "TODO: e.g. `npm run lint`",
    "",
    "## Architecture",
    "TODO: the main folders and what lives in each.",
    "",
    "## Key conventions",
    "TODO: naming, error handling, what never to do.",
    "",
  ].join("\n");
}

/** Roles whose prompts a project may extend: `.agentmux/prompts/agents/<name>.md` (reviewer = all reviewers). */
export const STUB_ROLES = ["coder", "reviewer", "architect", "planner", "product-manager", "designer"] as const;

export const stubPath = (role: string) => join(AGENTMUX_DIR, "prompts", "agents", `${role}.md`);

export function promptStub(role: string): string {
  return [
    `<!-- Project instructions appended to the ${role} prompt by agentmux. Delete this comment and write your own. -->`,
    `- Example: follow the conventions in the existing code before adding new patterns.`,
    "",
  ].join("\n");
}

/** Stub roles that have no extension file yet. */
export function missingStubs(projectDir: string): string[] {
  return STUB_ROLES.filter((r) => !existsSync(join(projectDir, stubPath(r))));
}

/** Create `rel` under projectDir with `content` unless it exists; returns whether it wrote. */
export function createIfMissing(projectDir: string, rel: string, content: string): boolean {
  const path = join(projectDir, rel);
  if (existsSync(path)) return false;
  writeFileAtomic(path, content);
  return true;
}

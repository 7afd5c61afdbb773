/**
 * What the scripted model does for each of agentmux's prompts in a whole pipeline: the files the
 * role writes (through the CLI's own file tool: claude `Write`, gemini `write_file`, codex a
 * shell command) and the submit tool it calls after them. The content follows agentmux's
 * contracts (src/schema/artifacts), so the submit tools accept it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse, stringify } from "yaml";
import { Plan } from "../../src/schema/artifacts/plan.ts";
import { defaultPlan } from "../../src/sim/tasks/plan-builder.ts";
import { doneArtifact, F, reviewYaml } from "../../src/protocol/paths.ts";
import type { OfferedTool } from "./mock-turns.ts";

export type FileWrite = { path: string; content: string };
export type Work = { files: FileWrite[]; submit: { tool: string; args: Record<string, unknown> } | null };

const SLUG = "greeting";

/** The session folder, the folder the agents work in and the review round, from a prompt file's absolute path. */
export function where(promptPath: string): { session: string; work: string; round: number } {
  const session = dirname(dirname(promptPath));
  let work = session.replace(/\/\.agentmux\/\.sessions\/[^/]+$/, "");
  let round = 0;
  try {
    const state = JSON.parse(readFileSync(join(session, F.state), "utf8")) as { worktree_path?: string; project_dir?: string; review_iteration?: number };
    work = state.worktree_path ?? state.project_dir ?? work;
    round = state.review_iteration ?? 0;
  } catch {
    // no state.json yet: the repository above .agentmux
  }
  return { session, work, round };
}

/** `failFirstReview`: the first review round's verdict fails with one finding, so a fix round comes; later rounds pass. */
export type WorkOptions = { failFirstReview?: boolean };

const ARCHITECTURE = [
  "# Architecture",
  "",
  "## Solution overview",
  `A small module \`src/${SLUG}.js\` greets; \`test/${SLUG}.test.js\` proves it.`,
  "",
  "## Components",
  `- \`${SLUG}\`: a pure function with a default input.`,
  "",
  "## Interfaces",
  `- \`${SLUG}(name?: string): string\``,
  "",
  "## Risks",
  "- Low: the change is additive.",
  "",
].join("\n");

function subplans(session: string): { index: number; owned_files: string[] }[] {
  try {
    return Plan.parse(parse(readFileSync(join(session, F.planYaml), "utf8"))).subplans.sort((a, b) => a.index - b.index);
  } catch {
    return [{ index: 1, owned_files: [`src/${SLUG}.js`, `test/${SLUG}.test.js`] }];
  }
}

const ownedFiles = (session: string): string[] => subplans(session).flatMap((s) => s.owned_files);

/** Subplan n's coder: its files, its done artifact, then submit_done. */
function coderWork(session: string, work: string, n: number, files: string[]): Work {
  const done = {
    subplan_index: n,
    status: "SUCCESS",
    tasks_completed: files.map((f) => `Wrote ${f}`),
    files_created: files.filter((f) => !existsSync(join(work, f))),
    files_modified: files.filter((f) => existsSync(join(work, f))),
    tests: { files: files.filter((f) => /(^|\/)test\//.test(f)).length, cases: 1 },
  };
  return {
    files: [
      ...files.map((f) => ({ path: join(work, f), content: source(f) })),
      { path: join(session, doneArtifact(n)), content: JSON.stringify(done, null, 2) + "\n" },
    ],
    submit: { tool: "submit_done", args: { subplan_index: n } },
  };
}

/**
 * Every piece of work a prompt asks for, in order: one for most prompts; the whole plan's coder
 * (a CLI with single_coder, F.coderWholePrompt) does each subplan and submits each.
 */
export function worksFor(promptPath: string, o: WorkOptions = {}): Work[] | null {
  const { session, work } = where(promptPath);
  if (promptPath.slice(session.length + 1) === F.coderWholePrompt) return subplans(session).map((s) => coderWork(session, work, s.index, s.owned_files));
  const one = workFor(promptPath, o);
  return one ? [one] : null;
}

const source = (file: string) =>
  /(^|\/)test\//.test(file)
    ? `import { test } from "node:test";\nimport assert from "node:assert";\nimport { ${SLUG} } from "../src/${SLUG}.js";\n\ntest("greets", () => assert.equal(${SLUG}("you"), "Hello, you!"));\n`
    : `export function ${SLUG}(name = "world") {\n  return \`Hello, \${name}!\`;\n}\n`;

/** The role's work for a prompt file, or null when the path is not one of agentmux's prompts. */
export function workFor(promptPath: string, o: WorkOptions = {}): Work | null {
  const { session, work, round } = where(promptPath);
  const rel = promptPath.slice(session.length + 1);
  if (rel === F.architectPrompt) {
    return {
      files: [{ path: join(session, F.architecture), content: ARCHITECTURE }],
      submit: { tool: "submit_architecture", args: { reviewers: ["reviewer_logic"] } },
    };
  }
  if (rel === F.plannerPrompt) {
    const plan = defaultPlan(SLUG, "Add a greeting module", {});
    return { files: [{ path: join(session, F.planYaml), content: stringify(plan) }], submit: { tool: "submit_plan", args: {} } };
  }
  const coder = /^06_implementation\/coder_prompt_(\d+)\.md$/.exec(rel);
  if (coder) return coderWork(session, work, Number(coder[1]), ownedFiles(session));
  const review = /^07_review\/review_(logic|quality|expert)_prompt\.md$/.exec(rel);
  if (review) {
    const role = `reviewer_${review[1]}`;
    const fail = !!o.failFirstReview && round === 0;
    const finding = {
      issue: `src/${SLUG}.js does not trim the name`,
      recommendation: "Trim the name before greeting.",
      location: `src/${SLUG}.js:2`,
      severity: "medium",
    };
    const yaml = fail
      ? stringify({ verdict: "fail", summary: `${role} found 1 issue in the greeting module.`, findings: [finding] })
      : stringify({ verdict: "pass", summary: `${role} checked the greeting module: it does what was asked.`, findings: [] });
    return { files: [{ path: join(session, reviewYaml(role)), content: yaml }], submit: { tool: "submit_review", args: { role } } };
  }
  if (rel === F.fixPrompt) {
    // the fixer: the source file changed for the finding, then plan 1 done again
    const file = `src/${SLUG}.js`;
    const fixed = `export function ${SLUG}(name = "world") {\n  name = String(name).trim();\n  return \`Hello, \${name}!\`;\n}\n`;
    const done = {
      subplan_index: 1,
      status: "SUCCESS",
      tasks_completed: [`Trimmed the name in ${file}`],
      files_created: [],
      files_modified: [file],
      tests: { files: 1, cases: 1 },
    };
    return {
      files: [
        { path: join(work, file), content: fixed },
        { path: join(session, doneArtifact(1)), content: JSON.stringify(done, null, 2) + "\n" },
      ],
      submit: { tool: "submit_done", args: { subplan_index: 1 } },
    };
  }
  if (rel === F.summaryPrompt) {
    const text = "# Summary\n\n## What was implemented\n\n- A greeting module and its test.\n\n## Deviations from plan\n\n- None.\n";
    return { files: [{ path: join(session, F.summary), content: text }], submit: null };
  }
  return null;
}

/**
 * The CLI's own tool call that writes `f`: claude `Write` (it refuses to overwrite a file it has
 * not read: `read` first), gemini and qwen `write_file`, opencode `write`, copilot `create`,
 * codex `exec_command` with a here-document (any other CLI: its shell tool).
 */
export function writeCall(offered: OfferedTool[], f: FileWrite): { tool: OfferedTool; args: Record<string, unknown> }[] {
  const by = (name: string) => offered.find((t) => t.name === name);
  const write = by("Write");
  if (write) {
    const read = by("Read");
    return [
      ...(existsSync(f.path) && read ? [{ tool: read, args: { file_path: f.path } }] : []),
      { tool: write, args: { file_path: f.path, content: f.content } },
    ];
  }
  const gemini = by("write_file");
  if (gemini) return [{ tool: gemini, args: { file_path: f.path, content: f.content } }];
  // opencode's write refuses an existing file it has not read in this session
  const opencode = by("write");
  if (opencode && !existsSync(f.path)) return [{ tool: opencode, args: { filePath: f.path, content: f.content } }];
  // copilot's create writes neither over a file nor into a missing folder
  const copilot = by("create");
  if (copilot && !existsSync(f.path) && existsSync(dirname(f.path))) return [{ tool: copilot, args: { path: f.path, file_text: f.content } }];
  const shell = by("exec_command") ?? by("shell") ?? by("run_shell_command") ?? by("bash");
  if (shell) {
    const cmd = `mkdir -p '${dirname(f.path)}' && cat > '${f.path}' <<'AMX_EOF'\n${f.content}AMX_EOF`;
    if (shell.name === "shell") return [{ tool: shell, args: { command: ["bash", "-lc", cmd] } }];
    if (shell.name === "exec_command") return [{ tool: shell, args: { cmd } }];
    return [{ tool: shell, args: { command: cmd, description: `Write ${f.path}` } }];
  }
  return [];
}

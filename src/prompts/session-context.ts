import { existsSync, readFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { State, roundComments } from "../schema/state.ts";
import type { TopicTasks } from "../schema/topic-tasks.ts";
import { lineCommentsMarkdown } from "../schema/artifacts/line-comments-md.ts";
import { inspectSessionFile, SessionFileInvalid } from "../session/file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import type { Role } from "../schema/catalog.ts";
import { AGENTMUX_DIR, F, researchDir } from "../protocol/paths.ts";
import { fileBlock, readSessionFile } from "./expand.ts";
import { COMMAND_TEMPLATES } from "./templates.ts";

/** state.json as far as the research handoff reads it. */
const RESEARCH_STATUS = { ...SESSION_FILES.state, schema: State.pick({ research_tasks: true, web_research_tasks: true }) };
/** state.json as far as the fix prompt's line comments read it. */
const COMMENT_STATUS = { ...SESSION_FILES.state, schema: State.pick({ review_comments: true, review_iteration: true }).partial() };

/** A work-dir file's lines as they are now (null: missing, unreadable or not inside the work dir). */
export function workFileLines(workDir: string, file: string): string[] | null {
  const root = resolve(workDir);
  const abs = resolve(root, file);
  if (!abs.startsWith(root + sep)) return null;
  try {
    const lines = readFileSync(abs, "utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines;
  } catch {
    return null;
  }
}

/**
 * The line comments of the current fix round (state.json), grouped by file, with the lines of
 * the file as it is now around each one. Comments of failing reviews must be addressed.
 */
export function lineCommentsSection(sessionDir: string, workDir: string): string {
  const state = inspectSessionFile(sessionDir, COMMENT_STATUS);
  if (!state.ok && !state.missing) throw new SessionFileInvalid({ path: join(sessionDir, F.state), name: F.state, problems: state.problems });
  const s = state.ok ? state.value : null;
  const comments = s ? roundComments({ review_comments: s.review_comments, review_iteration: s.review_iteration ?? 0 }) : [];
  if (!comments.length) return "No line comments in this round.";
  const md = comments.map((c) => ({
    id: c.id,
    file: c.file,
    start_line: c.start_line,
    end_line: c.end_line,
    severity: c.severity,
    by: c.reviewer,
    note: c.addressed_in !== undefined ? "addressed by the fixer" : c.blocking ? "must be addressed" : "suggestion",
    body: c.body,
    ...(c.suggestion ? { suggestion: c.suggestion } : {}),
  }));
  return lineCommentsMarkdown(md, (file) => workFileLines(workDir, file))
    .replace(/^## Line comments\n\n/, "")
    .trimEnd();
}

/**
 * The research handoff block: topics whose status in state.json is `done` AND whose
 * summary.md exists, sorted by folder name; summary first, detail as supporting material.
 */
export function researchHandoff(sessionDir: string, template: string): string {
  let topics: string[] = [];
  const state = inspectSessionFile(sessionDir, RESEARCH_STATUS);
  if (!state.ok && !state.missing) throw new SessionFileInvalid({ path: join(sessionDir, F.state), name: F.state, problems: state.problems });
  if (state.ok) {
    const done = (tasks: TopicTasks | undefined, type: "code" | "web") =>
      Object.entries(tasks ?? {})
        .filter(([, status]) => status === "done")
        .map(([topic]) => researchDir(type, topic));
    topics = [...done(state.value.research_tasks, "code"), ...done(state.value.web_research_tasks, "web")];
  }
  const blocks = topics.sort().flatMap((dir) => {
    const summary = readSessionFile(sessionDir, `${dir}/summary.md`, template);
    if (summary === null) return [];
    const detail = readSessionFile(sessionDir, `${dir}/detail.md`, template);
    const parts = [`### ${dir.slice("03_research/".length)}`, "Primary findings:", fileBlock(`${dir}/summary.md`, summary)];
    if (detail !== null) parts.push("Additional detail (evidence, snippets, citations):", fileBlock(`${dir}/detail.md`, detail));
    return [parts.join("\n")];
  });
  return blocks.length === 0 ? "No research topics have been completed for this session." : blocks.join("\n\n");
}

/**
 * Project extensions, in order: the shared reviewer file (reviewer sub-roles), the role's own file,
 * then the command's file for command templates. `context` is not extendable.
 */
export function projectExtensionFiles(projectDir: string, template: string, role: Role): string[] {
  if (template === "context") return [];
  const base = join(projectDir, AGENTMUX_DIR, "prompts");
  const files = role.startsWith("reviewer_") ? [join(base, "agents", "reviewer.md")] : [];
  files.push(join(base, "agents", `${role}.md`));
  if (COMMAND_TEMPLATES.has(template)) files.push(join(base, "commands", `${template}.md`));
  return files;
}

export function projectInstructions(projectDir: string, template: string, role: Role): string {
  const texts = projectExtensionFiles(projectDir, template, role)
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f, "utf8").trim())
    .filter((t) => t.length > 0);
  return texts.length === 0 ? "None for this project." : texts.join("\n\n");
}

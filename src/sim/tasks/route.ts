import { ReviewerRole } from "../../schema/catalog.ts";
import { architect } from "./architect.ts";
import { coder, fixer } from "./coder.ts";
import { designer, productManager, summary } from "./documents.ts";
import { planner } from "./planner.ts";
import { researcher } from "./research.ts";
import { reviewer } from "./reviewer.ts";
import type { Task } from "./types.ts";

/**
 * The task for a prompt file, inferred from its session-relative path only (never from the
 * prompt's wording: templates belong to someone else). Null when the path is not a known prompt.
 */
export function taskFor(rel: string, prompt: string): Task | null {
  const path = rel.replace(/\\/g, "/");
  switch (path) {
    case "01_product_management/product_manager_prompt.md":
      return { name: "product manager", run: productManager };
    case "02_architecting/architect_prompt.md":
      return { name: "architect", run: architect };
    case "04_planning/planner_prompt.md":
      return { name: "planner", run: (io) => planner(io, { changes: false, prompt }) };
    case "04_planning/changes_prompt.md":
    case "02_architecting/changes_prompt.md":
      return { name: "planner (changes)", run: (io) => planner(io, { changes: true, prompt }) };
    case "05_design/designer_prompt.md":
      return { name: "designer", run: designer };
    case "06_implementation/coder_prompt_whole.md":
      return { name: "coder (whole plan)", run: (io) => coder(io, "whole", prompt) };
    case "07_review/fix_prompt.md":
      return { name: "fixer", run: (io) => fixer(io, prompt) };
    case "08_completion/summary_prompt.md":
      return { name: "summary", run: summary };
  }
  let m = /^06_implementation\/coder_prompt_(\d+)\.md$/.exec(path);
  if (m) {
    const n = Number(m[1]);
    return { name: `coder ${n}`, run: (io) => coder(io, n, prompt) };
  }
  m = /^07_review\/review_(logic|quality|expert)_prompt\.md$/.exec(path);
  if (m) {
    const role = ReviewerRole.parse(`reviewer_${m[1]}`);
    return { name: role, run: (io) => reviewer(io, role) };
  }
  m = /^(03_research\/(?:code|web)-[a-z0-9-]+)\/prompt\.md$/.exec(path);
  if (m) {
    const dir = m[1]!;
    return { name: `researcher ${dir.slice("03_research/".length)}`, run: (io) => researcher(io, dir) };
  }
  return null;
}

/**
 * The prompt file a submitted line points at: the first quoted absolute path
 * (`Read and follow the instructions in "/abs/x.md"`, see protocol/paths.ts quotedPath), else an
 * unquoted one, as a person might type it.
 */
export function promptPathIn(line: string): string | null {
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
    try {
      const path = JSON.parse(`"${m[1]}"`) as string;
      if (path.startsWith("/") && path.endsWith(".md")) return path;
    } catch {
      // not a JSON string: keep looking
    }
  }
  const bare = /(\/[^\s"'`]+\.md)\b/.exec(line);
  return bare ? bare[1]! : null;
}

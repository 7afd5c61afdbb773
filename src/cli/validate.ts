import { existsSync, statSync, type Stats } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { F } from "../protocol/paths.ts";
import { readState } from "../session/read.ts";
import { ARTIFACT_KINDS, inferKind, isArtifactKind, type ArtifactKind } from "../artifacts/kinds.ts";
import { readArtifact } from "../artifacts/parse.ts";
import type { ParsedArgs } from "./args.ts";
import { ExcludeEscapesRepo } from "../effects/git/errors.ts";
import { excludeProblems } from "../effects/git/exclude.ts";
import { findRepoRoot } from "../effects/git/repo.ts";
import { ArtifactKindUnknown, FileNotFound, NotAFile } from "./errors.ts";
import type { validate } from "./specs/setup.ts";
import { inertLine } from "../schema/inert-text.ts";

/** `agentmux validate <file> [--kind K]`: the same validation the MCP tools and the orchestrator use. */
export async function run(args: ParsedArgs<typeof validate>): Promise<number> {
  const file = args.positionals[0]!;
  const given = args.flags.kind;
  // a missing file is named before a name that says no kind
  let st: Stats;
  try {
    st = statSync(file);
  } catch {
    throw new FileNotFound({ file });
  }
  if (!st.isFile()) throw new NotAFile({ file, kind: kindOf(st) });
  let kind: ArtifactKind;
  if (given !== undefined && isArtifactKind(given))
    kind = given; // the parser refused other kinds
  else {
    const inferred = inferKind(file);
    if (!inferred) throw new ArtifactKindUnknown({ file, kinds: ARTIFACT_KINDS });
    kind = inferred;
  }
  const result = await readArtifact(kind, resolve(file));
  if (result.ok && kind === "approval" && !(await approvalExcludesOk(file))) return 1;
  if (result.ok && kind === "review" && !(await reviewAnchorsOk(file))) return 1;
  if (result.ok && kind === "execution_plan" && !(await executionPlanFilesOk(file))) return 1;
  if (result.ok) {
    say(`✓ ${file}: valid ${kind}`);
    return 0;
  }
  for (const p of result.problems) say(p.path ? `${file}: ${p.path}: ${p.message}` : `${file}: ${p.message}`);
  return 1;
}

/** One line of the report: file names and what the file says are untrusted text (an agent wrote them). */
const say = (line: string) => process.stdout.write(inertLine(line) + "\n");

function kindOf(st: Stats): "a directory" | "a FIFO" | "a socket" | "a device" | "not a regular file" {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  return st.isCharacterDevice() || st.isBlockDevice() ? "a device" : "not a regular file";
}

/** Each plan file an execution plan names is there beside it, as the implementing phase reads them. */
async function executionPlanFilesOk(file: string): Promise<boolean> {
  const parsed = await readArtifact("execution_plan", resolve(file));
  if (!parsed.ok) return true; // reported by the caller
  let ok = true;
  parsed.value.groups.forEach((g, gi) =>
    g.plans.forEach((p, pi) => {
      if (existsSync(join(dirname(resolve(file)), p.file))) return;
      say(`${file}: groups[${gi}].plans[${pi}].file: ${p.file} does not exist in ${dirname(file)}`);
      ok = false;
    }),
  );
  return ok;
}

/** The commit's own check of exclude_files: what the commit would refuse, validate refuses. */
async function approvalExcludesOk(file: string): Promise<boolean> {
  const parsed = await readArtifact("approval", resolve(file));
  if (!parsed.ok) return true; // reported by the caller
  const problems = excludeProblems(await approvalRepo(resolve(file)), parsed.value.exclude_files);
  for (const p of problems) {
    const e = new ExcludeEscapesRepo(p);
    say(`${file}: ${e.where}: ${e.message}`);
  }
  return problems.length === 0;
}

/**
 * A review's line comments point into the run's diff, as submit_review checks: the diff of the
 * session the file belongs to (its work folder, minus what was uncommitted before the run), else
 * the working tree of the repository around the file.
 */
async function reviewAnchorsOk(file: string): Promise<boolean> {
  const parsed = await readArtifact("review", resolve(file));
  const comments = parsed.ok ? (parsed.value.comments ?? []) : [];
  if (!comments.length) return true;
  const where = await workOf(resolve(file));
  if (!where.work) {
    say(`${file}: comments: cannot check the line comments: the file is in no session and no git repository (their files must be in a run's diff)`);
    return false;
  }
  const { anchorProblems, runDiff } = await import("../artifacts/anchors.ts");
  const problems = anchorProblems(comments, await runDiff(where.work, where.session ?? undefined));
  for (const p of problems) say(`${file}: ${p.path}: ${p.message}`);
  return problems.length === 0;
}

/**
 * The repository an approval.json's exclusions apply to: the work folder of the session it
 * belongs to (its worktree, else its project), else the repository around the file, else none
 * (then only the checks that need no repository run).
 */
async function approvalRepo(file: string): Promise<string | null> {
  return (await workOf(file)).work;
}

/** The session a file belongs to (a folder above it with state.json) and its work folder, else the repository around the file. */
async function workOf(file: string): Promise<{ work: string | null; session: string | null }> {
  for (let d = dirname(file); dirname(d) !== d; d = dirname(d)) {
    if (!existsSync(join(d, F.state))) continue;
    try {
      const s = readState(d);
      const work = s.worktree_path ?? s.main_repo_dir ?? s.project_dir;
      if (work && existsSync(work)) return { work, session: d };
    } catch {
      // not a readable session: fall through to the repository around the file
    }
    break;
  }
  return { work: await findRepoRoot(dirname(file)).catch(() => null), session: null };
}

import { lstatSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, relative, sep } from "node:path";
import { hasHeadCommit, pathStatus } from "../effects/git/path-status.ts";
import { doneStatusRefusal, type DoneArtifact } from "../schema/artifacts/done.ts";
import type { Problem } from "./kinds.ts";

type Claim = "files_created" | "files_modified" | "files_deleted";

const inside = (root: string, p: string) => {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

/** The nearest existing ancestor's real path, joined with the part that does not exist yet. */
function realTarget(abs: string): string {
  let existing = abs;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest.reverse());
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return abs;
      rest.push(existing.slice(parent.length + 1));
      existing = parent;
    }
  }
}

/** Why a claimed path is not an acceptable repository-relative path, or undefined when it is. */
function pathProblem(claimed: string, workDir: string, realWorkDir: string): string | undefined {
  if (isAbsolute(claimed)) return "must be relative to the work directory, not absolute";
  const norm = normalize(claimed);
  if (norm.split(sep).includes("..")) return "must not contain '..' (it has to stay inside the work directory)";
  if (norm === "." || norm === "") return "must name a file, not the work directory";
  if (norm === ".git" || norm.startsWith(".git" + sep)) return "must not point into .git";
  if (!inside(realWorkDir, realTarget(join(workDir, norm)))) return "resolves through a symlink to a place outside the work directory";
  return undefined;
}

const exists = (p: string) => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

async function statusOf(workDir: string, filepath: string, hasHead: boolean): Promise<string> {
  if (!hasHead) return exists(join(workDir, filepath)) ? "*added" : "absent";
  return pathStatus(workDir, filepath);
}

function claimProblem(claim: Claim, status: string, present: boolean): string | undefined {
  if (claim === "files_deleted") return present ? "is claimed deleted but still exists" : undefined;
  if (!present) return `is claimed ${claim === "files_created" ? "created" : "modified"} but does not exist`;
  if (status === "ignored") return "is ignored by .gitignore, so it cannot be part of the change";
  if (claim === "files_created") {
    if (status === "*added" || status === "added") return undefined;
    if (status === "unmodified" || status === "*unmodified") return "is claimed created but is tracked and unchanged since HEAD";
    return "is claimed created but already exists in HEAD (list it under files_modified)";
  }
  // modified: any difference from HEAD counts, including a file that is new since HEAD
  if (status === "unmodified" || status === "*unmodified") return "is claimed modified but is unchanged since HEAD";
  return undefined;
}

/**
 * The verification gate (seeds/agent-completion-artifacts-verification-gate.txt), a hard stop:
 * the artifact must report finished work (SUCCESS; PARTIAL only when `allowPartial`, never
 * FAILED) and every claim in it must be real in `workDir` relative to HEAD. Returns one problem
 * per refusal, naming the field or file; an empty list means the artifact may be accepted.
 */
export async function checkDoneArtifact(
  artifact: DoneArtifact,
  opts: { workDir: string; subplanIndex: number; allowPartial?: boolean; fixRound?: boolean },
): Promise<Problem[]> {
  const problems: Problem[] = [];
  const status = doneStatusRefusal(artifact.status, { subplanIndex: opts.subplanIndex, allowPartial: opts.allowPartial === true, fixRound: opts.fixRound });
  if (status) problems.push({ path: "status", message: status });
  if (artifact.subplan_index !== undefined && artifact.subplan_index !== opts.subplanIndex) {
    problems.push({ path: "subplan_index", message: `is ${artifact.subplan_index} but submit_done was called for subplan ${opts.subplanIndex}` });
  }
  const workDir = opts.workDir;
  let realWorkDir: string;
  try {
    realWorkDir = realpathSync(workDir);
  } catch {
    return [...problems, { path: "", message: `work directory ${workDir} does not exist` }];
  }
  // a repository without commits: everything present is new
  const hasHead = await hasHeadCommit(workDir);
  const claims: Claim[] = ["files_created", "files_modified", "files_deleted"];
  for (const claim of claims) {
    const list = artifact[claim] ?? [];
    for (let i = 0; i < list.length; i++) {
      const claimed = list[i]!;
      const path = `${claim}[${i}]`;
      const bad = pathProblem(claimed, workDir, realWorkDir);
      if (bad) {
        problems.push({ path, message: `"${claimed}" ${bad}` });
        continue;
      }
      const filepath = normalize(claimed).split(sep).join("/");
      const present = exists(join(workDir, filepath));
      if (present && claim !== "files_deleted" && lstatSync(join(workDir, filepath)).isDirectory()) {
        problems.push({ path, message: `"${claimed}" is a directory; list the files in it` });
        continue;
      }
      let status = "absent";
      if (present && claim !== "files_deleted") {
        try {
          status = await statusOf(workDir, filepath, hasHead);
        } catch (e) {
          problems.push({ path, message: `"${claimed}" could not be checked against HEAD: ${(e as Error).message}` });
          continue;
        }
      }
      const wrong = claimProblem(claim, status, present);
      if (wrong) problems.push({ path, message: `"${claimed}" ${wrong}` });
    }
  }
  return problems;
}

import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { F } from "../protocol/paths.ts";

/**
 * A finished run's session folder is removed after its commit (seeds: "deleted only on a
 * successful commit"); a compact copy stays inspectable under `.agentmux/.sessions/.archive/<id>/`
 * — state, request, plan, reviews, summary, log — so `agentmux status` works right after a run.
 * `agentmux clean` removes archives like sessions.
 */
export const ARCHIVE_DIR = ".archive";

export const archiveRootOf = (sessionsRoot: string) => join(sessionsRoot, ARCHIVE_DIR);
export const archiveDirOf = (sessionDir: string) => join(dirname(sessionDir), ARCHIVE_DIR, basename(sessionDir));

/** What is kept: the files `status` reads and a person looks at afterwards. */
const KEEP = [
  F.state,
  F.requirements,
  F.planMd,
  F.planYaml,
  F.architecture,
  F.design,
  F.reviewMd,
  F.summary,
  F.changes,
  F.approval,
  F.createdFiles,
  F.orchestratorLog,
  F.orchestratorOutput,
];
const KEEP_DIRS: { dir: string; re: RegExp }[] = [{ dir: "07_review", re: /^review_.*\.(md|yaml)$/ }];

/** Files above this keep only their last part (a long orchestrator.log). */
const MAX_FILE = 1 << 20;

function copyCapped(from: string, to: string): void {
  const size = statSync(from).size;
  mkdirSync(dirname(to), { recursive: true });
  if (size <= MAX_FILE) return copyFileSync(from, to);
  const fd = openSync(from, "r");
  try {
    const buf = Buffer.alloc(MAX_FILE);
    const n = readSync(fd, buf, 0, MAX_FILE, size - MAX_FILE);
    writeFileSync(to, Buffer.concat([Buffer.from(`[… the first ${size - n} bytes were not archived …]\n`), buf.subarray(0, n)]));
  } finally {
    closeSync(fd);
  }
}

/** Copy the compact record of a finished session next to the other archives; returns its folder. */
export function archiveSession(sessionDir: string): string {
  const to = archiveDirOf(sessionDir);
  const partial = `${to}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  const files: string[] = [...KEEP];
  for (const { dir, re } of KEEP_DIRS) {
    try {
      for (const f of readdirSync(join(sessionDir, dir))) if (re.test(f)) files.push(`${dir}/${f}`);
    } catch {
      /* no such folder in this run */
    }
  }
  try {
    for (const rel of files) if (existsSync(join(sessionDir, rel))) copyCapped(join(sessionDir, rel), join(partial, rel));
    rmSync(to, { recursive: true, force: true }); // an older run with the same name
    mkdirSync(dirname(to), { recursive: true });
    // complete or absent: a reader never sees half an archive
    renameSync(partial, to);
  } catch (e) {
    rmSync(partial, { recursive: true, force: true });
    throw e;
  }
  return to;
}

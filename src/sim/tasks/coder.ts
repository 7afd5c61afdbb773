import { Plan, type Subplan } from "../../schema/artifacts/plan.ts";
import type { DoneArtifact } from "../../schema/artifacts/done.ts";
import { F, doneArtifact } from "../../protocol/paths.ts";
import { classify } from "../git-head.ts";
import { countTests, isTestFile, mendBug, writeOwnedFile } from "../code-writer.ts";
import { flakyTest, hangingTest, mendHang } from "../check-scenarios.ts";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { sessionSlug } from "../naming.ts";
import { TaskFailed, writeArtifact, type TaskIO } from "./types.ts";
import { parseLineComments } from "../../schema/artifacts/line-comments-md.ts";
import { fixNote } from "./fix-note.ts";

const MAX_TRIES = 3;

function readPlan(io: TaskIO): Plan {
  const parsed = Plan.safeParse(io.s.readYaml(F.planYaml));
  if (!parsed.success) throw new TaskFailed(`${F.planYaml} is not a valid plan: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}

/** Write done_<N>.json truthfully (relative to git HEAD) and submit_done; on a refusal, correct and retry. */
async function reportDone(io: TaskIO, n: number, files: string[], tasks: string[], extra: Partial<DoneArtifact> = {}): Promise<void> {
  const { workDir, agent, scenario } = io.s.env;
  let lie = !!scenario.gate_refuse_once && io.s.once.take("gate_refuse");
  for (let attempt = 1; attempt <= MAX_TRIES; attempt++) {
    const changes = await classify(workDir, files);
    const artifact: DoneArtifact = {
      subplan_index: n,
      agent,
      status: "SUCCESS",
      tasks_completed: tasks,
      files_created: changes.created,
      files_modified: changes.modified,
      ...(changes.deleted.length ? { files_deleted: changes.deleted } : {}),
      tests: countTests(workDir, files),
      ...extra,
      timestamp: new Date().toISOString(),
    };
    // gate_refuse_once: claim a file that was never written, as a careless agent would.
    if (lie) artifact.files_created = [...artifact.files_created, files[0]!.replace(/(\.[^./]+)?$/, "_extra$1")];
    lie = false;
    writeArtifact(io, doneArtifact(n), JSON.stringify(artifact, null, 2) + "\n");
    await io.think();
    const r = await io.tool("submit_done", { subplan_index: n });
    if (r.ok) return;
    io.say(`● correcting ${doneArtifact(n)} after the refusal`);
  }
  throw new TaskFailed(`submit_done(${n}) kept refusing after ${MAX_TRIES} tries`);
}

/**
 * An earlier attempt at this very dispatch finished and wrote its completion artifact, but the
 * call did not reach agentmux (it was down): submit it again rather than redo the work. (Every
 * new dispatch starts with the done files removed, so an existing one is from this dispatch.)
 */
async function resubmitFinished(io: TaskIO, n: number): Promise<boolean> {
  if (!io.s.has(doneArtifact(n))) return false;
  io.say(`● ${doneArtifact(n)} is already written: an earlier attempt finished subplan ${n}; submitting it again`);
  return (await io.tool("submit_done", { subplan_index: n })).ok;
}

/**
 * Files an interrupted earlier attempt already changed, from the prompt's "An earlier attempt at
 * this task was interrupted" section (a good agent reads it and does not redo that work).
 */
export function interruptedFiles(prompt: string): Set<string> {
  const at = prompt.indexOf("## An earlier attempt at this task was interrupted");
  if (at < 0) return new Set();
  return new Set([...prompt.slice(at).matchAll(/^- (?:added|modified): (\S+)/gm)].map((m) => m[1]!));
}

async function implement(io: TaskIO, sub: Subplan, prompt: string): Promise<void> {
  if (await resubmitFinished(io, sub.index)) return;
  const { workDir, scenario, role, agent } = io.s.env;
  const kept = interruptedFiles(prompt);
  for (const file of sub.owned_files) {
    await io.think();
    if (kept.has(file)) {
      io.say(`● kept ${file}: the interrupted attempt already wrote it`);
      continue;
    }
    // check_bug: the first source file written in the run gets a bug its test catches
    const bug = !!scenario.check_bug && !isTestFile(file) && io.s.once.take("check_bug");
    const how = writeOwnedFile(workDir, file, { title: sub.title, owned: sub.owned_files, change: `${sub.title}: ${sub.tasks.join("; ")}`, bug });
    io.say(`● ${how} ${file}${bug ? " (with a bug its test catches)" : ""}`);
    // check_hang / check_flaky: the first test file written in the run gets a test that hangs, or fails once
    for (const kind of ["check_hang", "check_flaky"] as const) {
      if (!scenario[kind] || !isTestFile(file) || how !== "created" || !io.s.once.take(kind)) continue;
      const fn = file.replace(/^.*\//, "").replace(/\..*$/, "");
      appendFileSync(join(workDir, file), kind === "check_hang" ? hangingTest(fn) : flakyTest(fn));
      io.say(`● ${file}: added a test that ${kind === "check_hang" ? "hangs" : "fails on its first run only"}`);
    }
    if ((scenario.crash_midway === role || scenario.crash_midway === agent) && io.s.once.take(`crash_midway.${agent}`)) await io.crash();
  }
  await reportDone(io, sub.index, sub.owned_files, sub.tasks);
}

/** Coder: subplan N of plan.yaml, or (`whole`) every subplan in order, one submit_done each. */
export async function coder(io: TaskIO, which: number | "whole", prompt = ""): Promise<void> {
  const plan = readPlan(io);
  const subs = which === "whole" ? [...plan.subplans].sort((a, b) => a.index - b.index) : plan.subplans.filter((s) => s.index === which);
  if (subs.length === 0) throw new TaskFailed(`${F.planYaml} has no subplan ${which}`);
  for (const sub of subs) await implement(io, sub, prompt);
}

/** Fixer: edit the first owned source file (and its test) for the review findings, and the file of each line comment its prompt lists; then submit_done(1). */
export async function fixer(io: TaskIO, prompt = ""): Promise<void> {
  if (await resubmitFinished(io, 1)) return;
  const request = io.s.readOr(F.fixRequest, "");
  const round = Number(io.s.state().review_iteration ?? 1) || 1;
  let owned: string[];
  try {
    owned = readPlan(io).subplans.flatMap((s) => s.owned_files);
  } catch {
    const slug = sessionSlug(io.s);
    owned = [`src/${slug}.js`, `test/${slug}.test.js`];
  }
  const source = owned.find((f) => !isTestFile(f)) ?? owned[0]!;
  const stem = source.replace(/^.*\//, "").replace(/\.[^.]+$/, "");
  const test = owned.find((f) => isTestFile(f) && f.includes(stem));
  const comments = parseLineComments(prompt).filter((c) => c.id && c.note !== "suggestion");
  // a failing check in the request: find the bug it points at and mend it
  const failingCheck = /^# Failing checks$/m.test(request);
  const mended = failingCheck ? owned.filter((f) => (isTestFile(f) ? mendHang(io.s.env.workDir, f) : mendBug(io.s.env.workDir, f))) : [];
  for (const file of mended) io.say(`● mended the bug in ${file} the failing check found`);
  const touched = [...new Set([...mended, ...(test ? [source, test] : [source]), ...comments.map((c) => c.file)])];
  const label = fixNote(round, request);
  for (const file of touched) {
    await io.think();
    io.say(`● ${writeOwnedFile(io.s.env.workDir, file, { title: label, owned, change: label })} ${file}`);
  }
  const findings = (request.match(/^#+\s*Finding/gim) ?? []).length || 1;
  const addressed = comments.map((c) => c.id!);
  if (addressed.length) io.say(`● addressed line comments ${addressed.join(", ")}`);
  await reportDone(io, 1, touched, [`Address review findings (round ${round})`], {
    issues_fixed: { total: findings + comments.length },
    ...(addressed.length ? { comments_addressed: addressed } : {}),
  });
}

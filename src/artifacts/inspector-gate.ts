import { lstatSync } from "node:fs";
import { join } from "node:path";
import { inspectSessionFile } from "../session/file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { F } from "../protocol/paths.ts";
import type { Problem } from "./kinds.ts";

const exists = (p: string) => {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * The verification gate (seeds/agent-completion-artifacts-verification-gate.txt) on the Inspector
 * record agentmux wrote from the checks it ran, before a commit: it must be there (a hard stop
 * when it is missing), valid, every file it verified must exist, and its status PASS — unless
 * `failAccepted` (a person approved over the failing checks, having been shown them). An empty
 * list means the commit may go on.
 */
export function checkInspectorRecord(sessionDir: string, workDir: string, o: { failAccepted: boolean }): Problem[] {
  const r = inspectSessionFile(sessionDir, SESSION_FILES.inspector);
  if (!r.ok)
    return r.missing
      ? [{ path: F.inspector, message: "is missing: the run ran checks but their record was never written" }]
      : r.problems.map((p) => ({ path: `${F.inspector}${p.path ? `.${p.path}` : ""}`, message: p.message }));
  const problems: Problem[] = [];
  r.value.files_verified.forEach((f, i) => {
    if (!exists(join(workDir, f))) problems.push({ path: `${F.inspector}.files_verified[${i}]`, message: `"${f}" does not exist in the working tree` });
  });
  if (r.value.status === "FAIL" && !o.failAccepted) {
    const failing = r.value.checks.filter((c) => c.required && c.status !== "passed" && !c.pre_existing).map((c) => c.name);
    problems.push({
      path: `${F.inspector}.status`,
      message: `is FAIL: required check(s) ${failing.join(", ") || "(unnamed)"} fail and nobody approved over them`,
    });
  }
  return problems;
}

import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import type { Logger } from "../effects/log.ts";
import type { CheckResult } from "../schema/checks.ts";
import { INSPECTOR_RECORD, checkRunDir } from "../schema/check-runs.ts";
import { readOptionalSessionFile, writeSessionFile } from "../session/file-io.ts";
import { SESSION_FILES, checkResultFile } from "../protocol/files.ts";
import type { State } from "../schema/state.ts";
import { buildInspectorCompletion } from "../checks/inspector.ts";
import { readPreexisting } from "../session/read.ts";

/** The results on disk of the batches the run still has (`extraRun`: the one that just finished), in batch order. */
function resultsOf(sessionDir: string, state: State, extraRun: number): CheckResult[] {
  const runs = [...(state.checks ?? []).map((r) => ({ id: r.id, names: r.names }))];
  const out: CheckResult[] = [];
  const ids = new Set(runs.map((r) => r.id));
  if (!ids.has(extraRun)) runs.push({ id: extraRun, names: [] });
  for (const r of runs.sort((a, b) => a.id - b.id)) {
    const dir = join(sessionDir, checkRunDir(r.id));
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith(".json")) continue;
      const result = readOptionalSessionFile(sessionDir, checkResultFile(`${checkRunDir(r.id)}/${f}`));
      if (result) out.push(result);
    }
  }
  return out;
}

/**
 * Write 06_checks/inspector.json, the seeds' Inspector completion, from the checks agentmux ran
 * (never from what an agent says). `files_verified`: the run's own changed files that exist.
 */
export async function writeInspectorRecord(o: { sessionDir: string; workDir: string; state: State; extraRun: number; log: Logger }): Promise<void> {
  try {
    const results = resultsOf(o.sessionDir, o.state, o.extraRun);
    if (!results.length) return;
    const { uncommittedRunChanges } = await import("../effects/git/preexisting.ts");
    const files = (await uncommittedRunChanges(o.workDir, readPreexisting(o.sessionDir))).filter((f) => existsSync(join(o.workDir, f))).sort();
    const record = buildInspectorCompletion(results, { storyKey: o.state.feature_name ?? o.state.session_name, files, at: new Date().toISOString() });
    writeSessionFile(o.sessionDir, SESSION_FILES.inspector, record);
  } catch (e) {
    o.log(`could not write ${INSPECTOR_RECORD}: ${(e as Error).message}`, { level: "warn", event: "check" });
  }
}

import { readdirSync } from "node:fs";
import { F } from "../../protocol/paths.ts";
import { TaskFailed, mustCall, writeArtifact, type TaskIO } from "./types.ts";

/**
 * Researcher (batch mode): answer the request in 03_research/<type>-<topic>/ with
 * summary.md + detail.md, then submit_research_done({topic, type}).
 */
export async function researcher(io: TaskIO, dirRel: string): Promise<void> {
  const m = /^03_research\/(code|web)-([a-z0-9]+(?:-[a-z0-9]+)*)$/.exec(dirRel);
  if (!m) throw new TaskFailed(`not a research folder: ${dirRel}`);
  const type = m[1] as "code" | "web";
  const topic = m[2]!;
  const request = io.s.readOr(`${dirRel}/request.md`, "");
  const questions = request
    .split("\n")
    .filter((l) => /^\s*[-*]\s+/.test(l))
    .map((l) => l.replace(/^\s*[-*]\s+/, "").trim());
  await io.think();
  const evidence = type === "code" ? topFiles(io.s.env.workDir) : ["https://example.org/docs (simulated source)"];
  const answers = (questions.length ? questions : [`What matters for ${topic}?`]).map(
    (q, i) => `${i + 1}. ${q}\n   Answer: see ${evidence[0] ?? "the project root"} (simulated research).`,
  );
  writeArtifact(io, `${dirRel}/summary.md`, [`# Research summary: ${topic}`, "", ...answers, ""].join("\n"));
  writeArtifact(
    io,
    `${dirRel}/detail.md`,
    [`# Research detail: ${topic}`, "", `Type: ${type}`, "", "## Evidence", "", ...evidence.map((e) => `- ${e}`), ""].join("\n"),
  );
  await io.think();
  await mustCall(io, "submit_research_done", { topic, type });
}

/** A few top-level entries of the work dir, as code-research "evidence". */
function topFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => !n.startsWith(".") && n !== "node_modules" && n !== F.runtimeDir)
      .sort()
      .slice(0, 8);
  } catch {
    return [];
  }
}

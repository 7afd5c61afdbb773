import { join } from "node:path";
import { readArtifact } from "../artifacts/parse.ts";
import { F } from "../protocol/paths.ts";

const MAX_PATCH = 12_000;

/** The files a coder's sub-plan owns (plan.yaml), or null when the prompt is not a sub-plan's. */
async function ownedFiles(sessionDir: string, vars: Record<string, string>): Promise<string[] | null> {
  const n = Number(vars.plan_index);
  if (!Number.isInteger(n) || n < 1) return null;
  const plan = await readArtifact("plan", join(sessionDir, F.planYaml));
  if (!plan.ok) return null;
  return (plan.value as { subplans: { index: number; owned_files: string[] }[] }).subplans.find((s) => s.index === n)?.owned_files ?? null;
}

/**
 * The section appended to the prompt of an agent relaunched after an interruption (a crash
 * restart, a usage-limit fallback, `agentmux resume`): an earlier attempt was stopped, and
 * what it (or earlier agents) changed in the working tree since the run's base, so the new
 * attempt continues instead of redoing the work (a duplicated change block otherwise).
 */
export async function interruptionNote(workDir: string, sessionDir: string, vars: Record<string, string>): Promise<string> {
  const owned = await ownedFiles(sessionDir, vars);
  // git (isomorphic-git) loads only here, when an agent is relaunched: the orchestrator stays small
  const [{ changedFiles }, { fileDiff }] = await Promise.all([import("../effects/git/changes.ts"), import("../effects/git/diff.ts")]);
  let changes: { path: string; status: string }[] = [];
  try {
    changes = await changedFiles(workDir);
  } catch (e) {
    return section(`(agentmux could not list the changes: ${(e as Error).message})`);
  }
  const mine = owned ? changes.filter((c) => owned.includes(c.path)) : changes;
  if (!changes.length) return section("The working tree has no changes since the run began: start from the beginning.");
  const list = changes.map((c) => `- ${c.status}: ${c.path}${owned && owned.includes(c.path) ? " (owned by your sub-plan)" : ""}`).join("\n");
  let patch = "";
  for (const c of mine) {
    if (patch.length > MAX_PATCH) break;
    patch += await fileDiff(workDir, c.path).catch(() => "");
  }
  if (patch.length > MAX_PATCH) patch = patch.slice(0, MAX_PATCH) + "\n… (cut; read the files themselves)\n";
  return section(
    `Changed files since the run began (git status against the base commit):\n\n${list}\n${patch ? `\nThe changes${owned ? " to the files your sub-plan owns" : ""}:\n\n\`\`\`diff\n${patch.trimEnd()}\n\`\`\`\n` : ""}`,
  );
}

function section(body: string): string {
  return [
    "",
    "## An earlier attempt at this task was interrupted",
    "",
    "Another agent was working on this prompt and stopped before it finished (its CLI exited, hit a",
    "usage limit, or the run was stopped and resumed). Part of its work may already be on disk.",
    "Check the files before you change them: finish what is missing, do not add a second copy of",
    "what is there, and keep what is correct.",
    "",
    body,
    "",
  ].join("\n");
}

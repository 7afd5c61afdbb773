import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { withFileLock } from "../effects/fs/lock.ts";
import type { Preference } from "../schema/tool-events.ts";
import { ProposalsUnreadable } from "./errors.ts";
import { inspectSessionFile, writeSessionFile } from "./file-io.ts";
import { PROPOSALS_FILE } from "../protocol/files.ts";
import type { Proposal } from "../schema/proposals.ts";
import { AGENTMUX_DIR, PROPOSED_PREFERENCES } from "../protocol/paths.ts";
import { inertLine } from "../schema/inert-text.ts";

export const PREFERENCES_HEADING = "## Approved Preferences";
const ROLE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export const preferenceFile = (projectDir: string, role: string) => join(projectDir, AGENTMUX_DIR, "prompts", "agents", `${role}.md`);

/** The dedup key of a bullet: one leading -, * or + stripped, whitespace collapsed, case-folded. */
export function normalizeBullet(text: string): string {
  return text
    .trim()
    .replace(/^[-*+]\s*/, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** Why a preference cannot be applied (checked before anything is written), or undefined. */
export function preferenceProblem(p: Preference): string | undefined {
  if (!ROLE_FILE_NAME.test(p.target_role)) return `target_role "${p.target_role}" must be a role name such as "coder" (letters, digits, _ and -)`;
  return undefined;
}

function withBullets(existing: string, bullets: string[]): string {
  const lines = existing.length ? existing.replace(/\n+$/, "").split("\n") : [];
  const heading = lines.findIndex((l) => l.trim() === PREFERENCES_HEADING);
  const added = bullets.map((b) => `- ${b}`);
  if (heading < 0) return [...lines, ...(lines.length ? [""] : []), PREFERENCES_HEADING, "", ...added].join("\n") + "\n";
  let end = lines.length;
  for (let i = heading + 1; i < lines.length; i++) {
    if (/^#{1,2}\s/.test(lines[i]!)) {
      end = i;
      break;
    }
  }
  while (end > heading + 1 && lines[end - 1]!.trim() === "") end--;
  const after = lines.slice(end);
  while (after.length && after[0]!.trim() === "") after.shift();
  return [...lines.slice(0, end), ...added, ...(after.length ? ["", ...after] : [])].join("\n") + "\n";
}

/**
 * Appends approved preferences (the user's decision: `agentmux preferences approve`) to `<project>/.agentmux/prompts/agents/<role>.md` under
 * `## Approved Preferences`, skipping bullets already present (in the file or earlier in the batch).
 * Returns how many bullets were written per role.
 */
export function applyPreferences(projectDir: string, prefs: readonly Preference[]): Record<string, number> {
  const byRole = new Map<string, string[]>();
  for (const p of prefs) {
    const { role, bullet } = cleanPreference(p);
    if (!bullet || !role) continue;
    byRole.set(role, [...(byRole.get(role) ?? []), bullet]);
  }
  const written: Record<string, number> = {};
  for (const [role, bullets] of byRole) {
    const file = preferenceFile(projectDir, role);
    mkdirSync(dirname(file), { recursive: true });
    written[role] = withFileLock(`${file}.lock`, () => {
      const existing = existsSync(file) ? readFileSync(file, "utf8") : "";
      const seen = new Set(
        existing
          .split("\n")
          .filter((l) => /^\s*[-*+]\s/.test(l))
          .map(normalizeBullet),
      );
      const fresh: string[] = [];
      for (const b of bullets) {
        const key = normalizeBullet(b);
        if (seen.has(key)) continue;
        seen.add(key);
        fresh.push(b);
      }
      if (fresh.length) writeFileAtomic(file, withBullets(existing, fresh));
      return fresh.length;
    });
  }
  return written;
}

export { Proposal } from "../schema/proposals.ts";

export const proposalsFile = (projectDir: string) => join(projectDir, PROPOSED_PREFERENCES);
const proposalId = (role: string, bullet: string) =>
  createHash("sha256")
    .update(`${role}\n${normalizeBullet(bullet)}`)
    .digest("hex")
    .slice(0, 8);

/** The pending proposals (an unreadable file is an error naming it, never an empty list). */
export function readProposals(projectDir: string): Proposal[] {
  const r = inspectSessionFile(projectDir, PROPOSALS_FILE);
  if (r.ok) return r.value.proposals;
  if (r.missing) return [];
  throw new ProposalsUnreadable({ file: proposalsFile(projectDir), problem: r.problems.map((p) => `${p.path || "(top)"}: ${p.message}`).join("; ") });
}

function updateProposals<T>(projectDir: string, fn: (list: Proposal[]) => { next: Proposal[]; result: T }): T {
  const file = proposalsFile(projectDir);
  mkdirSync(dirname(file), { recursive: true });
  return withFileLock(`${file}.lock`, () => {
    const { next, result } = fn(readProposals(projectDir));
    writeSessionFile(projectDir, PROPOSALS_FILE, { version: 1, proposals: next });
    return result;
  });
}

/**
 * A preference as it is kept and written: one line, no list marker, and, being an agent's text,
 * no terminal escapes or controls (they would reach the list, a terminal or a prompt file).
 */
function cleanPreference(p: Preference): { role: string; bullet: string } {
  return {
    role: inertLine(p.target_role).trim(),
    bullet: inertLine(p.bullet)
      .trim()
      .replace(/^[-*+]\s*/, "")
      .replace(/\s+/g, " ")
      .trim(),
  };
}

/** Keep agent-proposed preferences for the user; returns how many were new. */
export function proposePreferences(projectDir: string, prefs: readonly Preference[], by: Proposal["proposed_by"]): number {
  return updateProposals(projectDir, (list) => {
    const next = [...list];
    let added = 0;
    for (const p of prefs) {
      const { role, bullet } = cleanPreference(p);
      if (!role || !bullet) continue;
      const id = proposalId(role, bullet);
      if (next.some((x) => x.id === id)) continue;
      next.push({ id, target_role: role, bullet, proposed_by: by, at: new Date().toISOString() });
      added++;
    }
    return { next, result: added };
  });
}

/**
 * The user's decision on proposals (`ids` empty: all of them): approved ones are written to the
 * role prompt files, both kinds leave the list. Returns the decided proposals and the ids not found.
 */
export function decideProposals(projectDir: string, ids: readonly string[], approve: boolean): { decided: Proposal[]; unknown: string[] } {
  return updateProposals(projectDir, (list) => {
    const wanted = ids.length ? new Set(ids) : new Set(list.map((p) => p.id));
    const decided = list.filter((p) => wanted.has(p.id));
    const unknown = [...wanted].filter((id) => !list.some((p) => p.id === id));
    if (approve && decided.length) applyPreferences(projectDir, decided);
    return { next: list.filter((p) => !wanted.has(p.id)), result: { decided, unknown } };
  });
}

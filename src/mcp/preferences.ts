import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { withFileLock } from "../effects/fs/lock.ts";
import type { Preference } from "../schema/tool-events.ts";
import { AGENTMUX_DIR } from "../session/paths.ts";

export const PREFERENCES_HEADING = "## Approved Preferences";
const ROLE_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export const preferenceFile = (projectDir: string, role: string) => join(projectDir, AGENTMUX_DIR, "prompts", "agents", `${role}.md`);

/** The dedup key of a bullet: one leading -, * or + stripped, whitespace collapsed, case-folded. */
export function normalizeBullet(text: string): string {
  return text.trim().replace(/^[-*+]\s*/, "").replace(/\s+/g, " ").trim().toLowerCase();
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
 * Appends approved preferences to `<project>/.agentmux/prompts/agents/<role>.md` under
 * `## Approved Preferences`, skipping bullets already present (in the file or earlier in the batch).
 * Returns how many bullets were written per role.
 */
export function applyPreferences(projectDir: string, prefs: readonly Preference[]): Record<string, number> {
  const byRole = new Map<string, string[]>();
  for (const p of prefs) {
    const bullet = p.bullet.trim().replace(/^[-*+]\s*/, "").replace(/\s+/g, " ").trim();
    if (!bullet || !p.target_role.trim()) continue;
    byRole.set(p.target_role.trim(), [...(byRole.get(p.target_role.trim()) ?? []), bullet]);
  }
  const written: Record<string, number> = {};
  for (const [role, bullets] of byRole) {
    const file = preferenceFile(projectDir, role);
    mkdirSync(dirname(file), { recursive: true });
    written[role] = withFileLock(`${file}.lock`, () => {
      const existing = existsSync(file) ? readFileSync(file, "utf8") : "";
      const seen = new Set(existing.split("\n").filter((l) => /^\s*[-*+]\s/.test(l)).map(normalizeBullet));
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

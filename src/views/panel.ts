import { Approval } from "../schema/artifacts/completion.ts";
import { fit, seg, type Line, type Style } from "./line.ts";
import { cells, tailCells } from "./width.ts";

export type ChangedFile = { path: string; status: "added" | "modified" | "deleted" };

const MARK: Record<ChangedFile["status"], [string, Style]> = { added: ["A", "green"], modified: ["M", "yellow"], deleted: ["D", "red"] };

/** `proposals`: preferences agents proposed that wait for the user (`agentmux preferences`). */
export function panelHeader(feature: string, files: ChangedFile[], excluded: Set<string>, width: number, proposals = 0): Line[] {
  const kept = files.length - files.filter((f) => excluded.has(f.path)).length;
  const prefs = proposals ? [seg(`  ·  ${proposals} proposed preference${proposals === 1 ? "" : "s"}: agentmux preferences`, "yellow")] : [];
  return [
    // the count before the title: a long title is what gets cut on a narrow screen
    fit(
      [
        seg("✓ implementation complete", "green", "bold"),
        seg(`  ·  ${kept}/${files.length} files to commit`, "dim"),
        ...prefs,
        seg("  ·  "),
        seg(feature, "bold"),
      ],
      width,
    ),
  ];
}

/**
 * The checklist: `[x] M path` (kept) or `[ ] M path` (excluded, dimmed); `›` marks the cursor.
 * A path too long for the width keeps its end (`…/backends/store.ts`): the file name is what tells files apart.
 */
export function fileLines(
  files: ChangedFile[],
  excluded: Set<string>,
  cursor: number,
  width: number,
  comments: ReadonlyMap<string, number> = new Map(),
): Line[] {
  if (!files.length) return [[seg("no changed files", "dim")]];
  return files.map((f, i) => {
    const out = excluded.has(f.path);
    const [m, st] = MARK[f.status];
    const here = i === cursor;
    const n = comments.get(f.path) ?? 0;
    const tag = n ? ` ✎${n}` : "";
    const room = Math.max(2, width - 8 - tag.length);
    const path = cells(f.path) > room ? "…" + tailCells(f.path, room - 1) : f.path;
    return fit(
      [
        seg(here ? "› " : "  ", "bold"),
        seg(out ? "[ ] " : "[x] ", out ? "dim" : "green"),
        seg(m + " ", st),
        seg(path, ...((out ? ["dim"] : []) as Style[]), ...((here ? ["inverse"] : []) as Style[])),
        seg(tag, "yellow"),
      ],
      width,
    );
  });
}

/** A unified diff coloured by line kind. */
export function diffLines(diff: string, width: number): Line[] {
  return diff.split("\n").map((l) => {
    const st: Style[] =
      l.startsWith("+++") || l.startsWith("---") ? ["bold"] : l.startsWith("+") ? ["green"] : l.startsWith("-") ? ["red"] : l.startsWith("@@") ? ["cyan"] : [];
    return fit([seg(l, ...st)], width);
  });
}

/** approval.json for the user's choices (validated by the protocol schema). */
export function buildApproval(files: ChangedFile[], excluded: Set<string>, message: string): Approval {
  const commit_message = message.trim();
  return Approval.parse({
    action: "approve",
    exclude_files: files.map((f) => f.path).filter((p) => excluded.has(p)),
    ...(commit_message ? { commit_message } : {}),
  });
}

/**
 * changes.md content: the user's text with exactly one trailing newline, then the line comments
 * section (schema/artifacts/line-comments-md.ts) when the user commented on diff lines.
 */
export function changesContent(text: string, lineComments = ""): string {
  const said = text.replace(/\s+$/, "") || (lineComments ? "Address the line comments below." : "");
  return said + "\n" + (lineComments ? "\n" + lineComments : "");
}

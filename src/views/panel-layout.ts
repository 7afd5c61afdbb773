import type { Key } from "./keys.ts";

/**
 * Where the completion panel's parts go for a terminal size. Wide (110 columns and more): the
 * summary on the left, the changed files and the commit message on the right. Narrower (an
 * 80×24 terminal): the files, the message and the summary stacked, each as wide as the
 * screen, so file names stay whole. The key bar takes the bottom lines in both.
 */
export type Rect = { top: number; left: number; width: number; height: number };
export type PanelLayout = { header: Rect; summary: Rect; files: Rect; checks: Rect; message: Rect; keys: Rect };

export const WIDE_PANEL = 110;

/** The panel's keys (`c` when the run ran checks); on a narrow screen the bar wraps onto two lines before any key is left out. */
export function panelKeys(checks = false): Key[] {
  return [
    { key: "↑/↓", label: "file", drop: 5 },
    { key: "space", label: "exclude", drop: 2 },
    { key: "Enter", label: "diff", drop: 3 },
    { key: "e", label: "edit message", drop: 4 },
    { key: "E", label: "$EDITOR", drop: 4.5 },
    { key: "PgUp/PgDn", label: "summary", drop: 6 },
    ...(checks ? [{ key: "c", label: "check output", drop: 1 }] : []),
    { key: "a", label: "approve" },
    { key: "r", label: "request changes" },
    { key: "q", label: "quit" },
  ];
}

/**
 * `checks`: the rows of the Checks box (0: the run ran none, no box). It sits under the changed
 * files, at most 6 rows tall (it scrolls), and takes its room from the files and the summary.
 */
export function panelLayout(width: number, height: number, files: number, keyLines: number, checks = 0): PanelLayout {
  const header = { top: 0, left: 0, width, height: 1 };
  const keys = { top: Math.max(1, height - keyLines), left: 0, width, height: keyLines };
  const body = Math.max(6, height - 1 - keyLines);
  const top = 1;
  const checksH = checks ? Math.min(checks, 6) + 2 : 0;
  if (width >= WIDE_PANEL) {
    const left = Math.floor(width * 0.55);
    const right = width - left;
    const filesH = Math.max(4, Math.min(files + 2, Math.floor((body - checksH) * 0.6), body - checksH - 5));
    return {
      header,
      keys,
      summary: { top, left: 0, width: left, height: body },
      files: { top, left, width: right, height: filesH },
      checks: { top: top + filesH, left, width: right, height: checksH },
      message: { top: top + filesH + checksH, left, width: right, height: body - filesH - checksH },
    };
  }
  const filesH = Math.max(4, Math.min(files + 2, Math.floor((body - checksH) * 0.4)));
  const messageH = Math.max(4, Math.floor(body * 0.3));
  const summaryH = Math.max(0, body - filesH - checksH - messageH);
  return {
    header,
    keys,
    files: { top, left: 0, width, height: filesH },
    checks: { top: top + filesH, left: 0, width, height: checksH },
    message: { top: top + filesH + checksH, left: 0, width, height: messageH + (summaryH < 3 ? summaryH : 0) },
    summary: { top: top + filesH + checksH + messageH, left: 0, width, height: summaryH < 3 ? 0 : summaryH },
  };
}

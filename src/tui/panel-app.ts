import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileDiff } from "../effects/git/diff.ts";
import { ChangesText } from "../schema/artifacts/completion.ts";
import type { State } from "../schema/state.ts";
import { readOptionalSessionFile, writeSessionFile } from "../session/file-io.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import { F, projectOfSession } from "../protocol/paths.ts";
import { readProposals } from "../session/preferences.ts";
import { blessed, createScreen, linesToContent } from "./blessed.ts";
import { overlay, question } from "./overlay.ts";
import { editor } from "./editor.ts";
import { editExternally } from "./external-editor.ts";
import { readRuntime, readState } from "../session/read.ts";
import { approvalInputs } from "../session/approval-inputs.ts";
import { diffViewer } from "./diff-viewer.ts";
import { lineCommentsMarkdown } from "../schema/artifacts/line-comments-md.ts";
import type { PanelComments } from "../schema/panel-comments.ts";
import type { InlineComment } from "../views/diff-view.ts";
import { seg } from "../views/line.ts";
import { markdownLines } from "../views/markdown.ts";
import { titleOf } from "../report/pipeline.ts";
import { buildApproval, changesContent, diffLines, fileLines, panelHeader, type ChangedFile } from "../views/panel.ts";
import { panelKeys, panelLayout, WIDE_PANEL, type Rect } from "../views/panel-layout.ts";
import { approveOverChecks, firstCheckToShow, panelCheckLines, panelChecks } from "../views/panel-checks.ts";
import { keyBar } from "../views/keys.ts";
import { Tmux } from "../effects/tmux/runner.ts";
import { setZoom, zoomIfNarrow } from "../effects/tmux/client.ts";

const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : "");

/** The reviewers' line comments on `file`, as the diff view draws them. */
export function reviewerComments(state: State, file: string): InlineComment[] {
  return (state.review_comments ?? [])
    .filter((c) => c.file === file)
    .map((c) => ({
      id: c.id,
      by: c.reviewer,
      severity: c.severity,
      body: c.body,
      start_line: c.start_line,
      end_line: c.end_line,
      note: c.addressed_in !== undefined ? `✓ addressed in fix round ${c.addressed_in}` : `round ${c.round}${c.blocking ? "" : ", suggestion"}`,
    }));
}

/** The user's comments being written (kept across a quit and a reopen of the panel). */
const readDrafts = (dir: string): PanelComments => readOptionalSessionFile(dir, SESSION_FILES.panelComments) ?? [];

/** A work file's lines as they are now (null: gone or unreadable), for the context in changes.md. */
function fileLinesNow(work: string, file: string): string[] | null {
  try {
    const lines = readFileSync(join(work, file), "utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    return lines;
  } catch {
    return null;
  }
}

/** changes.md's line comments section for the user's comments (empty when there are none). */
export function userCommentsMarkdown(work: string, drafts: PanelComments): string {
  const sorted = [...drafts].sort((a, b) => (a.file === b.file ? a.line - b.line : a.file < b.file ? -1 : 1));
  const md = sorted.map((c, i) => ({ id: `user-${i + 1}`, file: c.file, start_line: c.line, end_line: c.line, by: "you", body: c.body }));
  return lineCommentsMarkdown(md, (f) => fileLinesNow(work, f));
}

/**
 * `agentmux panel <session-dir>`: summary, changed files with diffs and exclusions, commit
 * message; `a` writes 08_completion/approval.json, `r` writes 08_completion/changes.md.
 * Exits 0 after writing a decision, 130 when the user quits without one (nothing written).
 */
/** Preferences agents proposed in this project, waiting for the user (0 when unreadable: the CLI says why). */
function proposalCount(dir: string): number {
  const project = projectOfSession(dir);
  try {
    return project ? readProposals(project).length : 0;
  } catch {
    return 0;
  }
}

export async function runPanel(dir: string): Promise<number> {
  const state = readState(dir);
  // the run's own files, the proposed message and the work in progress of an earlier panel on this decision
  const inputs = await approvalInputs(dir, state);
  const { work, proposedMessage, draft: earlier } = inputs;
  const files: ChangedFile[] = inputs.files;
  const excluded = new Set<string>((earlier?.exclude_files ?? []).filter((p) => files.some((f) => f.path === p)));
  let message = earlier?.commit_message ?? proposedMessage;
  // the change request typed so far: Esc goes back to the panel (to look at a diff) and it waits for the next r
  let request = earlier?.change_request ?? "";
  const saveDraft = () => {
    const edited = message !== proposedMessage;
    if (!edited && !excluded.size && !request.trim()) return rmSync(join(dir, F.panelDraft), { force: true });
    writeSessionFile(dir, SESSION_FILES.panelDraft, {
      exclude_files: [...excluded],
      ...(edited ? { commit_message: message } : {}),
      ...(request.trim() ? { change_request: request } : {}),
    });
  };
  /** a decision is written: its work in progress goes */
  const dropDrafts = () => {
    rmSync(join(dir, F.panelComments), { force: true });
    rmSync(join(dir, F.panelDraft), { force: true });
  };
  let cursor = 0;
  let firstRow = 0;
  /** one line for the header until the next key (what went wrong with $EDITOR) */
  let notice = "";
  let modal = false;
  const feature = titleOf(state);
  const summaryMd = read(join(dir, F.summary)) || "_no summary was written_";
  let drafts = readDrafts(dir);
  const saveDrafts = () => {
    if (drafts.length) writeSessionFile(dir, SESSION_FILES.panelComments, drafts);
    else rmSync(join(dir, F.panelComments), { force: true });
  };
  const commentCounts = () => {
    const n = new Map<string, number>();
    for (const c of [...(state.review_comments ?? []), ...drafts]) n.set(c.file, (n.get(c.file) ?? 0) + 1);
    return n;
  };
  const proposals = proposalCount(dir);
  // the checks agentmux ran on the code as it is now; `c` opens their output, the blocking one first
  const checks = panelChecks(state);
  let checkCursor = firstCheckToShow(checks);

  // beside the monitor on a narrow terminal the panel takes the whole window (given back on exit)
  const socket = process.env.TMUX_PANE ? readRuntime(dir)?.tmux_socket : undefined;
  const self = process.env.TMUX_PANE;
  const zoomed = socket && self ? await zoomIfNarrow(new Tmux(socket), self, WIDE_PANEL).catch(() => false) : false;

  const screen = createScreen();
  // header, file list and key bar are cut to their width by the views: blessed must not wrap them
  const header = blessed.box({ parent: screen, top: 0, left: 0, width: "100%", height: 1, tags: true, wrap: false });
  const summary = blessed.box({ parent: screen, label: " Summary ", border: { type: "line" }, tags: true, scrollable: true, alwaysScroll: true });
  const list = blessed.box({ parent: screen, label: " Changed files ", border: { type: "line" }, tags: true, wrap: false });
  const checkBox = blessed.box({ parent: screen, label: " Checks (c: output) ", border: { type: "line" }, tags: true, wrap: false });
  const msg = blessed.box({ parent: screen, label: " Commit message (e: edit) ", border: { type: "line" }, tags: true, scrollable: true });
  const help = blessed.box({ parent: screen, left: 0, tags: true, wrap: false });
  const inner = (b: blessed.Widgets.BoxElement) => Math.max(10, (b.width as number) - 2);
  const place = (b: blessed.Widgets.BoxElement, r: Rect) => {
    Object.assign(b, { top: r.top, left: r.left, width: r.width, height: r.height });
    if (r.height > 0) b.show();
    else b.hide();
  };

  const draw = () => {
    const w = screen.width as number;
    const keys = keyBar(panelKeys(checks.length > 0), w, 2);
    const at = panelLayout(w, screen.height as number, files.length, keys.length, checks.length);
    place(summary, at.summary);
    place(list, at.files);
    place(checkBox, at.checks);
    place(msg, at.message);
    place(help, at.keys);
    header.setContent(linesToContent(notice ? [[seg(notice, "yellow")]] : panelHeader(feature, files, excluded, w, proposals)));
    summary.setContent(linesToContent(markdownLines(summaryMd, inner(summary) - 1)));
    // the rows in view follow the cursor (scrolled only when it would leave the box)
    const rows = Math.max(1, (list.height as number) - 2);
    if (cursor < firstRow) firstRow = cursor;
    else if (cursor >= firstRow + rows) firstRow = cursor - rows + 1;
    firstRow = Math.max(0, Math.min(firstRow, files.length - rows));
    const shown = files.length > rows ? ` · ${firstRow + 1}–${Math.min(files.length, firstRow + rows)} of ${files.length}` : "";
    list.setLabel(` Changed files${shown} `);
    list.setContent(linesToContent(fileLines(files, excluded, cursor, inner(list), commentCounts()).slice(firstRow, firstRow + rows)));
    if (checks.length) {
      const rowsC = Math.max(1, (checkBox.height as number) - 2);
      const from = Math.max(0, Math.min(checkCursor - rowsC + 1, checks.length - rowsC));
      checkBox.setContent(linesToContent(panelCheckLines(checks, checkCursor, inner(checkBox), Date.now()).slice(from, from + rowsC)));
    }
    msg.setContent(linesToContent(message.split("\n").map((l) => [seg(l)])));
    help.setContent(linesToContent(keys));
    screen.render();
  };

  let finish!: (code: number) => void;
  const done = new Promise<number>((r) => (finish = r));
  let confirmation = "";
  /**
   * A write that fails (a full or read-only disk: the error names ENOSPC or EROFS, effects/fs/io-error.ts)
   * is said in the header and the panel stays: the decision, its message and comments are still here
   * to be made again once the disk is writable. Nothing is lost.
   */
  const attempt = (fn: () => void) => {
    try {
      fn();
    } catch (e) {
      notice = `✗ ${(e as Error).message}: nothing was lost, try again once the disk is writable`;
      modal = false;
      draw();
    }
  };
  const guard = (fn: () => void) => () => {
    if (modal) return;
    notice = "";
    attempt(fn);
  };
  const open = () => (modal = true);
  const close = () => ((modal = false), draw());

  screen.key(
    ["up", "k"],
    guard(() => ((cursor = Math.max(0, cursor - 1)), draw())),
  );
  screen.key(
    ["down", "j"],
    guard(() => ((cursor = Math.min(files.length - 1, cursor + 1)), draw())),
  );
  screen.key(
    ["pageup"],
    guard(() => (summary.scroll(-((summary.height as number) - 3)), screen.render())),
  );
  screen.key(
    ["pagedown"],
    guard(() => (summary.scroll((summary.height as number) - 3), screen.render())),
  );
  screen.key(
    ["space"],
    guard(() => {
      const f = files[cursor];
      if (!f) return;
      if (excluded.has(f.path)) excluded.delete(f.path);
      else excluded.add(f.path);
      attempt(saveDraft);
      draw();
    }),
  );
  screen.key(
    ["enter"],
    guard(async () => {
      const f = files[cursor];
      if (!f) return;
      open();
      let diff: string;
      try {
        diff = await fileDiff(work, f.path);
      } catch (e) {
        return overlay(screen, ` ${f.path} `, linesToContent(diffLines(`cannot show the diff: ${(e as Error).message}`, (screen.width as number) - 4)), close, {
          tagged: true,
        });
      }
      diffViewer(screen, {
        path: f.path,
        diff,
        comments: reviewerComments(state, f.path),
        mine: () => drafts.filter((c) => c.file === f.path).map((c) => ({ by: "you", body: c.body, start_line: c.line, end_line: c.line, mine: true })),
        setMine: (line, body) => {
          drafts = drafts.filter((c) => !(c.file === f.path && c.line === line));
          if (body) drafts.push({ file: f.path, line, body });
          attempt(saveDrafts);
        },
        onClose: close,
      });
    }),
  );
  screen.key(
    ["e"],
    guard(() => {
      open();
      editor(screen, "Commit message", message, (text) => {
        if (text !== null) message = text.trim();
        attempt(saveDraft);
        close();
      });
    }),
  );
  screen.key(
    ["E", "S-e"],
    guard(async () => {
      open();
      const r = await editExternally(screen, message);
      if ("text" in r) {
        if (r.text.trim()) message = r.text.trim();
        else notice = "the editor left the message empty: it is unchanged";
      } else notice = r.error;
      attempt(saveDraft);
      close();
    }),
  );
  const approve = () =>
    attempt(() => {
      const approval = buildApproval(files, excluded, message);
      writeSessionFile(dir, SESSION_FILES.approval, approval);
      dropDrafts();
      confirmation = `✓ Approved: committing ${files.length - approval.exclude_files.length} file(s)${approval.exclude_files.length ? `, ${approval.exclude_files.length} excluded` : ""}.`;
      finish(0);
    });
  /** approving drops the line comments: say so before they are gone */
  const approveDroppingDrafts = () => {
    if (!drafts.length) return approve();
    question(screen, `Approve and drop your ${drafts.length} line comment(s)? (r sends them with a change request) y/N`, (yes) => (yes ? approve() : close()));
  };
  screen.key(
    ["a"],
    guard(() => {
      const overChecks = approveOverChecks(checks);
      if (!overChecks && !drafts.length) return approve();
      open();
      // a required check that still fails: the commit goes over evidence only when the user says so
      if (overChecks) question(screen, overChecks, (yes) => (yes ? approveDroppingDrafts() : close()));
      else approveDroppingDrafts();
    }),
  );
  screen.key(
    ["c"],
    guard(() => {
      const c = checks[checkCursor];
      if (!c) return;
      open();
      const log = c.log ? read(join(dir, c.log)) : "";
      const more = checks.length > 1 ? ` (${checkCursor + 1} of ${checks.length}; c again: the next)` : "";
      checkCursor = (checkCursor + 1) % checks.length;
      // the check's own output: untrusted text, shown inert by the viewer
      overlay(screen, ` ${c.name}: ${c.command ?? ""}${more} `, log || "(no output was recorded)", close, { scrollToEnd: true });
    }),
  );
  screen.key(
    ["r"],
    guard(() => {
      open();
      const withComments = drafts.length ? ` (your ${drafts.length} line comment(s) go with it)` : "";
      const ask = (initial: string, why = "") =>
        editor(screen, `What should change?${withComments}${why}`, initial, (text, draft) => {
          request = draft;
          attempt(saveDraft);
          if (text === null) return close();
          const content = changesContent(text, userCommentsMarkdown(work, drafts));
          if (!ChangesText.safeParse(content).success) return ask(text, " (nothing to send yet: write the changes, or Esc)");
          attempt(() => {
            writeSessionFile(dir, SESSION_FILES.changes, content);
            dropDrafts();
            confirmation = "↻ Changes requested: the pipeline goes back to planning with your notes.";
            finish(0);
          });
        });
      ask(request);
    }),
  );
  screen.key(
    ["q", "C-c"],
    guard(() => {
      open();
      question(screen, "Quit without approving or requesting changes? y/N", (yes) => (yes ? finish(130) : close()));
    }),
  );
  screen.on("resize", draw);
  draw();
  const code = await done;
  screen.destroy();
  if (zoomed && socket && self) await setZoom(new Tmux(socket), self, false).catch(() => {});
  if (confirmation) process.stdout.write(confirmation + "\n");
  return code;
}

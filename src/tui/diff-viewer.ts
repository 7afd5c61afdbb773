// no `mouse: true`: mouse tracking delays process exit under tmux (see overlay.ts)
import { blessed, linesToContent } from "./blessed.ts";
import { boxTitle } from "./box-title.ts";
import { editor } from "./editor.ts";
import { diffRows, diffView, nextCommentable, type InlineComment } from "../views/diff-view.ts";

type Screen = blessed.Widgets.Screen;

export type DiffViewerOptions = {
  path: string;
  diff: string;
  /** reviewers' comments on this file (read-only) */
  comments: InlineComment[];
  /** the user's own comments on this file, kept by the caller */
  mine: () => InlineComment[];
  /** add, replace (same line) or remove (empty body) the user's comment on `line` */
  setMine: (line: number, body: string) => void;
  onClose: () => void;
};

/**
 * A file's diff, scrollable, with the cursor on a line of the file as it is now; reviewers'
 * comments under their lines. `c` comments on the cursor's line (again: edit it; empty: remove
 * it). Esc or q closes.
 */
export function diffViewer(screen: Screen, o: DiffViewerOptions): void {
  const rows = diffRows(o.diff);
  let cursor = nextCommentable(rows, -1, 1);
  if (cursor < 0) cursor = 0;
  let busy = false;
  const box = blessed.box({ parent: screen, top: "center", left: "center", width: "94%", height: "86%", border: { type: "line" }, tags: true });
  /** `note`: said after the keys until the next draw (a line that takes no comment) */
  const title = (note = "") => box.setLabel(boxTitle(`${o.path} — ↑/↓ line · c comment on this line · Esc back${note ? ` ${note}` : ""}`, box.width as number));
  let top = 0;
  const draw = () => {
    title();
    const width = Math.max(20, (box.width as number) - 2);
    const all = [...o.comments, ...o.mine()];
    const v = diffView(rows, all, cursor, width);
    // the rows in view follow the cursor: its line and the comments under it stay visible
    const h = Math.max(1, (box.height as number) - 2);
    const first = v.rowOf.indexOf(cursor);
    const last = v.rowOf.lastIndexOf(cursor);
    if (first < top) top = first;
    else if (last >= top + h) top = Math.min(first, last - h + 1);
    top = Math.max(0, Math.min(top, v.lines.length - h));
    box.setContent(linesToContent(v.lines.slice(top, top + h)));
    screen.render();
  };
  const move = (step: 1 | -1, times = 1) => {
    for (let i = 0; i < times; i++) cursor = nextCommentable(rows, cursor, step);
    draw();
  };
  const page = () => Math.max(1, (box.height as number) - 4);
  const guard = (fn: () => void) => () => {
    if (!busy) fn();
  };
  box.key(
    ["down", "j"],
    guard(() => move(1)),
  );
  box.key(
    ["up", "k"],
    guard(() => move(-1)),
  );
  box.key(
    ["pagedown", "space"],
    guard(() => move(1, page())),
  );
  box.key(
    ["pageup"],
    guard(() => move(-1, page())),
  );
  box.key(
    ["c"],
    guard(() => {
      const line = rows[cursor]?.newLine;
      if (line === null || line === undefined) {
        title("· (no line of the file as it is now here)");
        return screen.render();
      }
      const existing = o.mine().find((c) => c.start_line === line)?.body ?? "";
      busy = true;
      editor(screen, `Comment on ${o.path} line ${line} (empty removes it)`, existing, (text) => {
        busy = false;
        if (text !== null) o.setMine(line, text.trim());
        box.focus();
        draw();
      });
    }),
  );
  box.key(
    ["escape", "q"],
    guard(() => {
      box.destroy();
      o.onClose();
    }),
  );
  box.focus();
  draw();
}

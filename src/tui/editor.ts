import { blessed } from "./blessed.ts";
import { escapeTags } from "../views/line.ts";
import { charCells, cutCells } from "../views/width.ts";
import { boxTitle } from "./box-title.ts";
import * as B from "./edit-buffer.ts";

type Screen = blessed.Widgets.Screen;
type Key = { name?: string; full?: string; ctrl?: boolean; meta?: boolean };

const MOVES: Record<string, (b: B.EditBuffer) => B.EditBuffer> = {
  left: B.left,
  right: B.right,
  up: B.up,
  down: B.down,
  home: B.home,
  end: B.end,
  "C-a": B.home,
  "C-e": B.end,
  "C-b": B.left,
  "C-f": B.right,
  "C-p": B.up,
  "C-n": B.down,
  backspace: B.backspace,
  "C-h": B.backspace,
  delete: B.del,
  "C-d": B.del,
  "C-k": B.killLine,
};

/**
 * A multi-line editor window over the panel: arrows, Home/End (Ctrl-A/E), Backspace/Delete,
 * Ctrl-K, Enter for a new line; Ctrl-S submits the text, Esc gives up (`done(null, draft)`:
 * the text as it was, for a caller that keeps it). The cursor is an inverse cell; the view
 * scrolls to keep it in sight.
 */
export function editor(screen: Screen, label: string, initial: string, done: (text: string | null, draft: string) => void): void {
  let buf = B.fromText(initial);
  let top = 0;
  let leftCol = 0;
  const box = blessed.box({
    parent: screen,
    top: "center",
    left: "center",
    width: "90%",
    height: "70%",
    border: { type: "line" },
    tags: true,
  });

  const draw = () => {
    const rows = Math.max(1, (box.height as number) - 2);
    const cols = Math.max(2, (box.width as number) - 2);
    // a title wider than the box ran past its corner and over the text below (80 columns)
    box.setLabel(boxTitle(`${label} — Ctrl-S submits, Esc returns`, box.width as number));
    if (buf.row < top) top = buf.row;
    if (buf.row >= top + rows) top = buf.row - rows + 1;
    leftCol = B.scrollLeft(buf, leftCol, cols);
    const out: string[] = [];
    for (let r = top; r < Math.min(buf.lines.length, top + rows); r++) {
      const cs = [...buf.lines[r]!].slice(leftCol);
      if (r !== buf.row) {
        out.push(escapeTags(cutCells(cs.join(""), cols)));
        continue;
      }
      const c = buf.col - leftCol;
      const before = cutCells(cs.slice(0, c).join(""), cols - 1);
      const under = cs[c] ?? " ";
      const after = cutCells(cs.slice(c + 1).join(""), Math.max(0, cols - 1 - [...before].reduce((n, ch) => n + charCells(ch), 0) - charCells(under)));
      out.push(`${escapeTags(before)}{inverse}${escapeTags(under)}{/inverse}${escapeTags(after)}`);
    }
    box.setContent(out.join("\n"));
    screen.render();
  };

  const onKey = (ch: string | undefined, key: Key) => {
    const name = key.full ?? key.name ?? "";
    if (name === "C-s") return close(B.toText(buf));
    if (name === "escape") return close(null);
    if (name === "return") return; // blessed follows every Return with an "enter"
    if (name === "enter") buf = B.newline(buf);
    else if (MOVES[name]) buf = MOVES[name]!(buf);
    else if (ch && !key.ctrl && !key.meta && ch >= " " && ch !== "\x7f") buf = B.insert(buf, ch);
    else return;
    draw();
  };
  const close = (text: string | null) => {
    screen.removeListener("keypress", onKey);
    screen.removeListener("resize", draw);
    box.destroy();
    screen.render();
    // after this keypress is fully handled: the screen's own keys must still see the editor open
    const draft = B.toText(buf);
    setImmediate(() => done(text, draft));
  };
  screen.on("keypress", onKey);
  screen.on("resize", draw);
  draw();
}

// no `mouse: true` anywhere: enabling mouse tracking delays process exit by ~5 s under tmux
import { blessed } from "./blessed.ts";
import { escapeTags, wrapText } from "../views/line.ts";
import { cells } from "../views/width.ts";
import { inertLine, inertText } from "../schema/inert-text.ts";

type Screen = blessed.Widgets.Screen;

/** A centred, scrollable text window; Esc or q closes it. */
export function overlay(screen: Screen, label: string, text: string, onClose: () => void, opts: { scrollToEnd?: boolean; tagged?: boolean } = {}): void {
  const box = blessed.box({
    parent: screen,
    label,
    top: "center",
    left: "center",
    width: "90%",
    height: "80%",
    border: { type: "line" },
    content: opts.tagged ? text : escapeTags(inertText(text)),
    tags: true,
    scrollable: true,
    alwaysScroll: true,
    keys: true,
    vi: true,
    scrollbar: { ch: " ", style: { inverse: true } } as any,
  });
  box.focus();
  if (opts.scrollToEnd) box.setScrollPerc(100);
  box.key(["escape", "q"], () => {
    box.destroy();
    onClose();
  });
  screen.render();
}

/** A y/N question (wrapped when wider than the screen); `answer(true)` only for y/Y, any other key is no. */
export function question(screen: Screen, text: string, answer: (yes: boolean) => void): void {
  const plain = inertLine(text);
  const width = Math.min((screen.width as number) - 2, cells(plain) + 4);
  // wrapped inside the border: a long question (a long session id at 80 columns) keeps its y/N in sight
  const lines = wrapText(plain, width - 2);
  const box = blessed.box({
    parent: screen,
    top: "center",
    left: "center",
    width,
    height: lines.length + 2,
    border: { type: "line" },
    content: escapeTags(lines.join("\n")),
    tags: true,
  });
  screen.render();
  screen.once("keypress", (ch: string | undefined) => {
    box.destroy();
    // answer after this keypress is fully handled: the screen's own key bindings (e.g. the home
    // screen's "n" for a new run) must still see the question open and ignore the key
    setImmediate(() => answer(ch === "y" || ch === "Y"));
  });
}

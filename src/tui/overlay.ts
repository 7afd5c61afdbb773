// no `mouse: true` anywhere: enabling mouse tracking delays process exit by ~5 s under tmux
import { blessed } from "./blessed.ts";
import { escapeTags } from "../views/line.ts";
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

/** A one-line y/N question; `answer(true)` only for y/Y, any other key is no. */
export function question(screen: Screen, text: string, answer: (yes: boolean) => void): void {
  const box = blessed.box({
    parent: screen,
    top: "center",
    left: "center",
    width: Math.min((screen.width as number) - 2, text.length + 4),
    height: 3,
    border: { type: "line" },
    content: escapeTags(inertLine(text)),
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

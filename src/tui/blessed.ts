/**
 * The one place blessed is imported. Two workarounds make it work inside the compiled binary
 * (reference/stack-notes.md §2): build.ts makes blessed's widget requires static, and here every
 * terminfo fallback goes to blessed's legacy-format xterm-256color, embedded in the binary —
 * ncurses ≥ 6.1 stores xterm-256color in a format blessed cannot parse, and its fallback path
 * (__dirname) is the build machine's node_modules.
 */
import blessed from "blessed";
// @ts-ignore -- a file asset: resolves to a path inside the binary ($bunfs) or node_modules
import xterm256 from "blessed/usr/xterm-256color" with { type: "file" };
import { toTags, osc8, type Line } from "../views/line.ts";

let patched = false;
function patchTput(): void {
  if (patched) return;
  patched = true;
  const Tput = (blessed as any).Tput;
  const useEmbedded = function (this: any) {
    return this.injectTerminfo(xterm256);
  };
  Tput.prototype._useXtermInfo = useEmbedded;
  Tput.prototype._useInternalInfo = useEmbedded;
}

export const color = () => !process.env.NO_COLOR;

/** A fullscreen blessed screen with the terminfo fix and readable box drawing under tmux. */
export function createScreen(): blessed.Widgets.Screen {
  process.env.NCURSES_NO_UTF8_ACS ??= "1";
  patchTput();
  // no `title` option: blessed's title handling delays process exit by ~5 s under tmux
  const screen = blessed.screen({ smartCSR: true, fullUnicode: true, warnings: false, autoPadding: false });
  screen.program.hideCursor();
  return screen;
}

/** Blessed content for view lines (tags, or plain text under NO_COLOR). Links are drawn by `drawLinks`. */
export const linesToContent = (lines: Line[]) => lines.map((l) => toTags(l, color())).join("\n");

/**
 * blessed strips escape sequences other than SGR from content, so OSC 8 hyperlinks are written
 * straight to the terminal after each render, over the cells blessed just drew.
 */
export function drawLinks(screen: blessed.Widgets.Screen, lines: Line[], top: number, left: number): void {
  const p = screen.program as any;
  lines.forEach((line, y) => {
    let x = 0;
    for (const s of line) {
      if (s.link) {
        p.cup(top + y, left + x);
        p._write(osc8(s.t, s.link));
      }
      x += s.t.length;
    }
  });
}

export { blessed };

/**
 * Give the terminal to another program (the user's $EDITOR) and take it back afterwards:
 * blessed's leave (normal buffer, cursor shown, cooked input, nothing drawn) and enter
 * (alternate buffer, raw input, a full redraw).
 */
export async function suspend<T>(screen: blessed.Widgets.Screen, run: () => Promise<T>): Promise<T> {
  const p = screen.program as any;
  p.normalBuffer();
  p.showCursor();
  p.flush(); // blessed buffers its output: the switch must reach the terminal before it goes quiet
  const write = p.output.write;
  p.output.write = () => true;
  p.input.pause();
  p.input.setRawMode?.(false);
  try {
    return await run();
  } finally {
    p.input.setRawMode?.(true);
    p.input.resume();
    p.output.write = write;
    p.alternateBuffer();
    p.hideCursor();
    screen.alloc();
    screen.render();
  }
}

/** What the simulated agent understands from the terminal. */
export type KeyEvent = { t: "text"; s: string } | { t: "paste"; s: string } | { t: "enter" } | { t: "backspace" } | { t: "ctrl-c" } | { t: "escape" };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/**
 * Decodes raw-mode terminal input into key events, across chunk boundaries: bracketed
 * pastes (ESC[200~ … ESC[201~) become one `paste` event; other escape sequences are dropped.
 */
export class KeyDecoder {
  private pending = "";
  private paste: string | null = null;

  feed(chunk: string): KeyEvent[] {
    const out: KeyEvent[] = [];
    let s = this.pending + chunk;
    this.pending = "";
    let text = "";
    const flush = () => {
      if (text) out.push({ t: "text", s: text });
      text = "";
    };
    while (s.length) {
      if (this.paste !== null) {
        const end = s.indexOf(PASTE_END);
        if (end < 0) {
          // keep a possible partial end marker for the next chunk
          const keep = partialSuffix(s, PASTE_END);
          this.paste += s.slice(0, s.length - keep);
          this.pending = s.slice(s.length - keep);
          return out;
        }
        out.push({ t: "paste", s: this.paste + s.slice(0, end) });
        this.paste = null;
        s = s.slice(end + PASTE_END.length);
        continue;
      }
      const c = s[0]!;
      if (c === "\x1b") {
        if (s.startsWith(PASTE_START)) {
          flush();
          this.paste = "";
          s = s.slice(PASTE_START.length);
          continue;
        }
        if (s === "\x1b") {
          // a lone Escape key (tmux writes a key press whole): not the start of a sequence
          flush();
          out.push({ t: "escape" });
          return out;
        }
        const len = escapeLength(s);
        if (len === 0) {
          flush();
          this.pending = s;
          return out;
        }
        s = s.slice(len);
        continue;
      }
      s = s.slice(1);
      if (c === "\r" || c === "\n") {
        flush();
        out.push({ t: "enter" });
      } else if (c === "\x7f" || c === "\b") {
        flush();
        out.push({ t: "backspace" });
      } else if (c === "\x03") {
        flush();
        out.push({ t: "ctrl-c" });
      } else if (c >= " " || c === "\t") {
        text += c;
      }
    }
    flush();
    return out;
  }
}

/** Length of the escape sequence at the start of `s`; 0 if it is incomplete. */
function escapeLength(s: string): number {
  if (s.length < 2) return 0;
  if (s[1] === "[") {
    for (let i = 2; i < s.length; i++) {
      const code = s.charCodeAt(i);
      if (code >= 0x40 && code <= 0x7e) return i + 1;
    }
    return s.length > 32 ? s.length : 0;
  }
  if (s[1] === "O") return s.length >= 3 ? 3 : 0;
  return 2;
}

/** How many trailing characters of `s` are a prefix of `marker`. */
function partialSuffix(s: string, marker: string): number {
  for (let k = Math.min(marker.length - 1, s.length); k > 0; k--) {
    if (s.endsWith(marker.slice(0, k))) return k;
  }
  return 0;
}

/**
 * Untrusted text is data (DESIGN.md rule 11). Request titles, GitHub issues, agent-written
 * summaries and reviews, file names and pane output pass through here on every path to a
 * terminal, a commit message or a pull request body, so that nothing in them can act:
 *
 * - escape sequences go whole: CSI (colours, cursor moves, `ESC [2J`), OSC (window titles,
 *   OSC 52 clipboard writes, OSC 8 links), DCS / SOS / PM / APC strings, two-character ESC
 *   sequences (`ESC c` resets the terminal), and their 8-bit C1 forms;
 * - C0 controls (BEL, BS, CR…), DEL and C1 controls (U+0080–U+009F) go;
 * - bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069: "Trojan
 *   Source") go: they make text read differently from what it is.
 *
 * `inertText` keeps the shape of multi-line text (newline and tab; CRLF and a lone CR become a
 * newline, so "ok\rFAILED" shows both words); `inertLine` makes one line of it (newlines and
 * tabs become spaces). This is the only sanitizer: tmux prompt delivery, the views, the CI
 * progress lines, errors, commit messages and PR bodies all use it.
 */

// a terminated string sequence: OSC, DCS, SOS, PM, APC — 7-bit (ESC ] … BEL | ESC \) or 8-bit (U+009D … U+009C)
const STRING_SEQ = /(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)/g;
// CSI: ESC [ or U+009B, parameter bytes, intermediate bytes, one final byte
const CSI_SEQ = /(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]/g;
// any other ESC sequence: intermediates, then one final byte (ESC c, ESC 7, ESC ( B …)
const ESC_SEQ = /\x1b[\x20-\x2f]*[\x30-\x7e]/g;
// what is left: C0 controls but TAB and LF, DEL, C1 controls, bidi embeddings/overrides/isolates
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
const QUICK = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

function strip(text: string): string {
  return text.replace(STRING_SEQ, "").replace(CSI_SEQ, "").replace(ESC_SEQ, "").replace(CONTROL, "");
}

/** Multi-line untrusted text made inert: newlines and tabs kept, CR and CRLF become newlines. */
export function inertText(text: string): string {
  const t = text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
  return QUICK.test(t) ? strip(t) : t;
}

/** One line of untrusted text made inert: newlines, CR and tabs become spaces. */
export function inertLine(text: string): string {
  const t = /[\t\n\r]/.test(text) ? text.replace(/\r\n|[\t\n\r]/g, " ") : text;
  return QUICK.test(t) ? strip(t) : t;
}

/**
 * JSON for a terminal: the same data, with the characters JSON.stringify leaves raw but a
 * terminal may act on (C1 controls, bidi controls, line/paragraph separators) written as
 * `\uXXXX` escapes. Parsing the output gives back exactly `value`.
 */
export function terminalJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(
    /[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

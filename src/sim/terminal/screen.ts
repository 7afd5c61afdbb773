/** What the simulated agent shows; `view` turns it into one full-screen frame of plain ANSI. */
export type ScreenModel = {
  mode: "blank" | "trust" | "main";
  role: string;
  workDir: string;
  transcript: string[];
  input: string;
  busy: boolean;
  /** a permission dialog is open: the status line says so instead of ready/working */
  dialog?: boolean;
};

export const TITLE_IDLE = "sim: idle";
export const TITLE_WORKING = "sim: working";
export const STATUS_READY = "[sim] ready";
export const STATUS_WORKING = "[sim] working";
export const STATUS_DIALOG = "[sim] waiting for permission";
export const INPUT_PROMPT = "› ";
export const TRUST_QUESTION = "Trust this folder? (sim)";
export const TRUST_HINT = "Press Enter to trust";

const ESC = "\x1b[";
const clip = (s: string, cols: number) => (Array.from(s).length > cols ? Array.from(s).slice(0, cols).join("") : s);

/** The input box text: newlines (from an early Enter) shown as ⏎; very long input as a placeholder. */
export function inputText(input: string, cols: number, maxRows: number): string {
  const shown = INPUT_PROMPT + input.replace(/\n/g, "⏎");
  if (Array.from(shown).length <= cols * maxRows) return shown;
  return `${INPUT_PROMPT}[Pasted text: ${input.length} chars]`;
}

/**
 * One frame. The input line is written unbroken and left to the terminal to wrap, so
 * `capture-pane -J` shows it as the one line that was pasted.
 */
export function view(m: ScreenModel, cols: number, rows: number): string {
  cols = Math.max(cols, 20);
  rows = Math.max(rows, 6);
  let out = `${ESC}H${ESC}2J`;
  if (m.mode === "blank") return out;
  if (m.mode === "trust") {
    out += `${ESC}1;1H${clip(TRUST_QUESTION, cols)}`;
    out += `${ESC}3;1H${clip(m.workDir, cols)}`;
    out += `${ESC}5;1H${clip(TRUST_HINT, cols)}`;
    return out + `${ESC}5;${Math.min(cols, TRUST_HINT.length + 1)}H`;
  }
  const input = inputText(m.input, cols, rows - 4);
  const inputRows = Math.max(1, Math.ceil(Array.from(input).length / cols));
  const transcriptRows = rows - 3 - inputRows;
  out += `${ESC}1;1H${ESC}1m${clip(`sim agent · ${m.role}`, cols)}${ESC}0m`;
  out += `${ESC}2;1H${"─".repeat(cols)}`;
  // transcript lines wrap as a real CLI's do (left to the terminal, so `capture-pane -J` joins
  // them): a question cut at the pane's edge lost its "?" and read as a turn without a submit call
  const shown: { line: string; rows: number }[] = [];
  let used = 0;
  for (let i = m.transcript.length - 1; i >= 0 && used < transcriptRows; i--) {
    const line = clip(m.transcript[i]!, cols * (transcriptRows - used));
    const rowsOf = Math.max(1, Math.ceil(Array.from(line).length / cols));
    shown.unshift({ line, rows: rowsOf });
    used += rowsOf;
  }
  let row = 3;
  for (const { line, rows: n } of shown) {
    out += `${ESC}${row};1H${line}`;
    row += n;
  }
  const inputRow = rows - inputRows;
  out += `${ESC}${inputRow};1H${input}`;
  // the status line sits on the last row, the input box directly above it
  out += `${ESC}${rows};1H${m.dialog ? STATUS_DIALOG : m.busy ? STATUS_WORKING : STATUS_READY}`;
  const len = Array.from(input).length;
  const curRow = inputRow + Math.floor(len / cols);
  return out + `${ESC}${Math.min(curRow, rows - 1)};${(len % cols) + 1}H`;
}

export const titleSeq = (title: string) => `\x1b]0;${title}\x07`;
export const ENTER_SCREEN = "\x1b[?1049h\x1b[?2004h";
export const LEAVE_SCREEN = "\x1b[?2004l\x1b[?1049l";

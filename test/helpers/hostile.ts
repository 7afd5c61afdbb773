/** Hostile strings for #18.14: what an issue, a request title, an agent's summary or a file name may carry. */
export const HOSTILE = {
  clipboard: "a\x1b]52;c;ZWNobyBwd25lZA==\x07b", // OSC 52: write the clipboard
  clipboardSt: "a\x1b]52;c;ZWNobyBwd25lZA==\x1b\\b", // the same, ST-terminated
  clear: "a\x1b[2J\x1b[Hb", // clear the screen, cursor home
  title: "a\x1b]0;you have been pwned\x07b", // set the window title
  cr: "ok\rFAILED", // overwrite the line
  backspace: "safe\b\b\b\bEVIL", // erase what was shown
  c1: "a\u009b2Jb\u009d0;t\u009cc", // 8-bit CSI and OSC
  bidi: "a\u202eevil\u202c\u2066x\u2069b", // right-to-left override, isolates
  reset: "a\x1bcb", // ESC c: full terminal reset
  dcs: "a\x1bPq#0;2;0;0;0\x1b\\b", // a DCS string (sixel)
  bell: "a\x07b",
  link: "a\x1b]8;;https://evil.example\x07click\x1b]8;;\x07b",
};

/** Nothing a terminal acts on: no ESC, no C0 but \n and \t, no DEL or C1, no bidi controls. */
export const isInert = (s: string) => !/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/.test(s);

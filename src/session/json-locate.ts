/**
 * Bun's JSON.parse reports no position, so after it fails this small scanner walks the
 * text again and reports where the first syntax error is (1-based line and column).
 */
export type JsonSyntaxError = { line: number; column: number; message: string };

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly what: string,
  ) {
    super(what);
  }
}

export function locateJsonError(text: string): JsonSyntaxError | undefined {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const fail = (what: string): never => {
    throw new Stop(i, i >= text.length ? `unexpected end of input (${what})` : `unexpected ${JSON.stringify(text[i])} (${what})`);
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail("expected a value");
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail("unterminated string");
      const c = text[i]!;
      if (c === '"') return void i++;
      if (c < " ") fail("control character in string");
      if (c === "\\") {
        i++;
        if (text[i] === "u" && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) i += 5;
        else if (text[i] !== undefined && '"\\/bfnrt'.includes(text[i]!)) i++;
        else fail("bad escape in string");
      } else i++;
    }
  };
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!m) fail("bad number");
    i += m![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") return container("}", true);
    if (c === "[") return container("]", false);
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return number();
    fail("expected a value");
  };
  const container = (close: string, isObject: boolean) => {
    i++;
    ws();
    if (text[i] === close) return void i++;
    for (;;) {
      if (isObject) {
        ws();
        if (text[i] !== '"') fail("expected a quoted key");
        string();
        ws();
        if (text[i] !== ":") fail('expected ":"');
        i++;
      }
      value();
      ws();
      if (text[i] === ",") {
        i++;
        ws();
        if (text[i] === close) fail("trailing comma");
        continue;
      }
      if (text[i] === close) return void i++;
      fail(`expected "," or "${close}"`);
    }
  };
  try {
    value();
    ws();
    if (i < text.length) fail("extra content after the JSON value");
    return undefined;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    const before = text.slice(0, e.at).split("\n");
    return { line: before.length, column: before[before.length - 1]!.length + 1, message: e.what };
  }
}

/**
 * A fast way through a large config (#31: 250,000 providers, 10 MB, took over a minute in the
 * yaml library's parser): when every line of the text is in a plain subset of YAML — block
 * mappings and sequences, one-line scalars, one-line flow sequences of scalars, comments — on
 * which Bun's native parser and the checked parse (read.ts parseConfigText) give the same data,
 * and no key repeats in its map, the text is read by `Bun.YAML.parse` (a few seconds for that
 * file). Anything else (anchors, aliases, tags, merge keys, block scalars, flow mappings,
 * multi-line scalars, several documents, `__proto__`, a duplicate key…) takes the checked parse,
 * which names every problem with its line and column. test/config/plain-yaml holds the two
 * parses equal on every config the tests and examples use.
 */

/** A key: a plain word (no YAML indicator, not a null), or a one-line double- or single-quoted string. */
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.\/-]*$/;
const NULL_WORDS = new Set(["null", "Null", "NULL", "~", ""]);
/** a plain scalar both parsers read alike: a word-like string, an integer or a decimal, true/false/null */
const PLAIN_VALUE = /^(?:[A-Za-z_\/][A-Za-z0-9_.\/@+=,;:#'"()*&!?$%<>^~| -]*|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?)$/;
const DOUBLE = /^"(?:[^"\\]|\\["\\\/bfnrt]|\\x[0-9A-Fa-f]{2}|\\u[0-9A-Fa-f]{4})*"$/;
const SINGLE = /^'(?:[^']|'')*'$/;

/** A one-line scalar value both parsers read alike (a trailing ` # comment` removed first). */
function plainScalar(text: string): boolean {
  if (DOUBLE.test(text) || SINGLE.test(text)) return true;
  // plain: no ": " or " #" inside (a mapping or a comment), no trailing space
  return PLAIN_VALUE.test(text) && !text.includes(": ") && !text.endsWith(":") && !text.endsWith(" ") && !text.includes(" #");
}

/** `[a, "b", 'c']` on one line: scalars only (no nested collection, no `key: value` pair). */
function flowSequence(text: string): boolean {
  if (!text.startsWith("[") || !text.endsWith("]")) return false;
  const inner = text.slice(1, -1).trim();
  if (inner === "") return true;
  const items: string[] = [];
  let rest = inner;
  while (rest.length) {
    const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^,"'\[\]{}]*)\s*(,\s*|$)/.exec(rest);
    if (!m || m[0] === "") return false;
    items.push(m[1]!.trim());
    rest = rest.slice(m[0].length);
  }
  return items.every((i) => i !== "" && plainScalar(i) && !i.includes(":") && !i.includes("#"));
}

/** The value part of a line, its comment removed: null when a comment cannot be told apart from the value. */
function withoutComment(text: string): string | null {
  if (text.startsWith('"') || text.startsWith("'")) {
    const m = text.startsWith('"') ? /^"(?:[^"\\]|\\.)*"/.exec(text) : /^'(?:[^']|'')*'/.exec(text);
    if (!m) return null;
    const after = text.slice(m[0].length);
    return after.trim() === "" || /^\s+#/.test(after) ? m[0] : null;
  }
  const hash = text.search(/\s#/);
  return (hash < 0 ? text : text.slice(0, hash)).trimEnd();
}

const keyName = (raw: string): string | null => {
  if (PLAIN_KEY.test(raw)) return NULL_WORDS.has(raw) || raw === "__proto__" || raw === "<<" ? null : raw;
  if (DOUBLE.test(raw)) {
    const k = JSON.parse(raw) as string;
    return k === "__proto__" || k === "" ? null : k;
  }
  return null;
};

type Frame = { indent: number; keys: Set<string> | null };

/**
 * Whether `text` is in the plain subset and has no repeated key: then `Bun.YAML.parse(text)` is
 * what the checked parse would give.
 */
export function isPlainYaml(text: string): boolean {
  if (text.includes("\t") || text.includes("\r") || text.charCodeAt(0) === 0xfeff) return false;
  const stack: Frame[] = [{ indent: 0, keys: new Set() }];
  // a line that opened a block (`key:` or `- key:`): the next deeper line starts its collection
  let open: { indent: number } | null = null;
  for (const line of text.split("\n")) {
    const body = line.trimStart();
    if (body === "" || body.startsWith("#")) continue;
    if (line.startsWith("---") || line.startsWith("...") || line.startsWith("%")) return false;
    let indent = line.length - body.length;
    let rest = body;
    // `- item`, `- key: value`: a sequence entry (possibly holding a mapping)
    let dash = false;
    if (rest === "-" || rest.startsWith("- ")) {
      dash = true;
      while (stack.length > 1 && stack.at(-1)!.indent > indent) stack.pop();
      const top = stack.at(-1)!;
      if (top.indent === indent && top.keys !== null) return false; // a sequence entry in a mapping
      if (top.indent < indent) {
        if (!open || open.indent > indent) return false;
        stack.push({ indent, keys: null });
      }
      open = null;
      const after = rest.slice(1);
      const inner = after.trimStart();
      if (inner === "" || inner.startsWith("#")) return false; // a nested block under a dash: not in the subset
      indent += 1 + (after.length - inner.length);
      rest = inner;
    }
    const colon = /^("(?:[^"\\]|\\.)*"|[^\s"':#][^:#]*?):(?:\s+|$)/.exec(rest);
    if (!colon) {
      // a scalar: only as a sequence entry
      if (!dash || open) return false;
      const value = withoutComment(rest);
      if (value === null || !(plainScalar(value) || flowSequence(value))) return false;
      continue;
    }
    const key = keyName(colon[1]!);
    if (key === null) return false;
    while (stack.length > 1 && stack.at(-1)!.indent > indent) stack.pop();
    let top = stack.at(-1)!;
    if (top.indent < indent) {
      // a new mapping: under a line that opened a block, or the first key of a `- ` entry
      if (!dash && (!open || open.indent >= indent)) return false;
      stack.push((top = { indent, keys: new Set() }));
    } else if (top.keys === null || dash) return false;
    if (top.keys!.has(key)) return false; // a duplicate: the checked parse names it
    top.keys!.add(key);
    const value = withoutComment(rest.slice(colon[0].length));
    if (value === null) return false;
    if (value === "") {
      open = { indent };
      continue;
    }
    open = null;
    if (!(plainScalar(value) || flowSequence(value))) return false;
  }
  return true;
}

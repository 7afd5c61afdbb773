import { int, lines, type Parsed, type RawFinding } from "./types.ts";

// `path/to/file.ext:12[:5]` anywhere in a line (in a stack frame `(…/file.ts:12:5)` too)
const ANCHOR = /(?:^|[\s('"`[])((?:[A-Za-z]:)?[\w@.~+\/\\-]*[\w-]\.[A-Za-z0-9]+):(\d+)(?::(\d+))?/g;

/**
 * The fallback: every `path:line[:col]` whose path names a file that exists in the checkout
 * (`exists` gets the path as printed), with its line as the message. Other text that looks like
 * an anchor (a host:port, a version) names no file there, so it is left out.
 */
export function parseGeneric(text: string, exists: (path: string) => boolean): Parsed {
  const findings: RawFinding[] = [];
  const seen = new Set<string>();
  for (const line of lines(text)) {
    for (const m of line.matchAll(ANCHOR)) {
      const file = m[1]!;
      if (!exists(file)) continue;
      const key = `${file}:${m[2]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      // a line that starts with its anchor (`file:12:5: message`) keeps only the message
      const rest = line.trim().startsWith(m[0].trim())
        ? line
            .trim()
            .slice(m[0].trim().length)
            .replace(/^[\s:-]+/, "")
        : "";
      findings.push({ file, line: int(m[2]), column: int(m[3]), message: (rest || line.trim()).slice(0, 500) });
    }
  }
  return { findings };
}

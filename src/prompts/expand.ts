import { existsSync, readFileSync } from "node:fs";
import { resolve, sep } from "node:path";
import { FragmentsTooDeep, IncludedFileMissing, IncludeEscapes, UnknownFragment } from "./errors.ts";
import { SHARED_FRAGMENTS } from "./templates.ts";

/** `[[shared:…]]` fragments may nest this deep; beyond it is an error (it is almost surely a cycle). */
export const MAX_SHARED_DEPTH = 8;

const SHARED = /\[\[shared:([A-Za-z0-9_-]+)\]\]/g;
const NAME = "[A-Za-z0-9_-]+";
const PLACEHOLDER_IN_PATH = String.raw`\[\[placeholder:${NAME}\]\]`;
/** One pass over include / placeholder / tool tokens; any other `[[` is left as it is. */
const TOKEN = new RegExp(
  String.raw`\[\[(include|include-optional):((?:[^\[\]\n]|${PLACEHOLDER_IN_PATH})+)\]\]` +
    String.raw`|\[\[placeholder:(${NAME})\]\]` +
    String.raw`|\[\[tool:(${NAME})\]\]`,
  "g",
);
const PLACEHOLDER = new RegExp(String.raw`\[\[placeholder:(${NAME})\]\]`, "g");

/** Stage 1: inline shared fragments, recursively. */
export function expandShared(text: string, template: string, fragments: Readonly<Record<string, string>> = SHARED_FRAGMENTS, chain: string[] = []): string {
  return text.replace(SHARED, (_m, name: string) => {
    const next = [...chain, name];
    if (next.length > MAX_SHARED_DEPTH) throw new FragmentsTooDeep({ template, name, depth: MAX_SHARED_DEPTH, chain: next });
    const fragment = fragments[name];
    if (fragment === undefined) throw new UnknownFragment({ template, name });
    return expandShared(fragment, template, fragments, next);
  });
}

/** `<file path="…">` block for a session file; the path shown is relative to the session folder. */
export function fileBlock(relPath: string, content: string): string {
  return `<file path="${relPath}">\n${content.replace(/\n+$/, "")}\n</file>`;
}

/**
 * A session file larger than this is named in the prompt instead of copied into it: a 1 MB
 * request included by each prompt (and again inside the architecture that quotes it) made
 * prompt files of megabytes. The agent reads the file itself.
 */
export const INLINE_MAX_BYTES = 64 * 1024;

/** The prompt's block for an included file too large to inline: where it is and how big. */
export function fileReference(relPath: string, absPath: string, bytes: number): string {
  const size = bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.round(bytes / 1024)} KB`;
  return `<file path="${relPath}" size="${size}">\n(too large to include here: read it from ${absPath})\n</file>`;
}

/** Read a session-relative file; `null` when it does not exist. Paths may not leave the session folder. */
export function readSessionFile(sessionDir: string, relPath: string, template: string): string | null {
  const root = resolve(sessionDir);
  const abs = resolve(root, relPath);
  if (!abs.startsWith(root + sep)) throw new IncludeEscapes({ template, path: relPath });
  return existsSync(abs) ? readFileSync(abs, "utf8") : null;
}

export interface Resolvers {
  template: string;
  sessionDir: string;
  placeholder: (name: string) => string;
  tool: (name: string) => string;
}

/** Stage 2: includes (whose paths may hold placeholders), placeholders and tool names. Substituted text is not re-scanned. */
export function expandTokens(text: string, r: Resolvers): string {
  return text.replace(TOKEN, (_m, kind: string | undefined, rawPath: string | undefined, ph: string | undefined, tool: string | undefined) => {
    if (ph !== undefined) return r.placeholder(ph);
    if (tool !== undefined) return r.tool(tool);
    const relPath = rawPath!.trim().replace(PLACEHOLDER, (_p, name: string) => r.placeholder(name));
    const content = readSessionFile(r.sessionDir, relPath, r.template);
    if (content !== null) {
      const bytes = Buffer.byteLength(content);
      return bytes > INLINE_MAX_BYTES ? fileReference(relPath, resolve(r.sessionDir, relPath), bytes) : fileBlock(relPath, content);
    }
    if (kind === "include-optional") return "";
    throw new IncludedFileMissing({ template: r.template, path: relPath, expectedAt: resolve(r.sessionDir, relPath) });
  });
}

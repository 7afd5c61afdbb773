/**
 * The Markdown form of line comments, shared by the fix prompt (a round's review comments),
 * the follow-up review prompt and `08_completion/changes.md` (the user's comments from the
 * completion panel's diff view). One section, grouped by file, a few lines of the file as it is
 * now around each comment (`▶` marks the commented lines):
 *
 *     ## Line comments
 *
 *     ### `src/app.js`
 *
 *     #### [user-1] line 12 · medium · you
 *
 *     ```context
 *       11 │ const a = 1;
 *     ▶ 12 │ let count = 0;
 *       13 │ return count;
 *     ```
 *
 *     Rename `count`: it holds a total.
 *
 * `parseLineComments` reads it back (the simulated planner does; tests check the round trip).
 */
export const LINE_COMMENTS_HEADING = "## Line comments";
export const CONTEXT_LINES = 3;

export type LineCommentMd = {
  id?: string;
  file: string;
  start_line: number;
  end_line: number;
  severity?: string;
  /** who made it: a reviewer role, `@login`, `you` */
  by?: string;
  /** after the who: e.g. "must be addressed", "addressed by the fixer" */
  note?: string;
  body: string;
  suggestion?: string;
};

/** A fence longer than any run of backticks in `text`, so the text cannot close it. */
export function fenceFor(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return "`".repeat(longest + 1);
}

/** The lines around `start`–`end` of a file, numbered, the commented ones marked with ▶. */
export function contextLines(lines: readonly string[], start: number, end: number, around = CONTEXT_LINES): string[] {
  const from = Math.max(1, start - around);
  const to = Math.min(lines.length, end + around);
  const width = String(to).length;
  const out: string[] = [];
  for (let n = from; n <= to; n++) out.push(`${n >= start && n <= end ? "▶" : " "} ${String(n).padStart(width)} │ ${lines[n - 1]!.replace(/\r$/, "")}`);
  return out;
}

const range = (c: Pick<LineCommentMd, "start_line" | "end_line">) =>
  c.start_line === c.end_line ? `line ${c.start_line}` : `lines ${c.start_line}–${c.end_line}`;

/**
 * The section for `comments`, grouped by file in the order files first appear. `source` gives a
 * file's lines as they are now (null: the file is gone), for the context around each comment.
 */
export function lineCommentsMarkdown(comments: readonly LineCommentMd[], source: (file: string) => string[] | null): string {
  if (!comments.length) return "";
  const out = [LINE_COMMENTS_HEADING];
  const files = [...new Set(comments.map((c) => c.file))];
  for (const file of files) {
    out.push("", `### \`${file.replace(/`/g, "")}\``);
    const lines = source(file);
    for (const c of comments.filter((x) => x.file === file)) {
      const tags = [c.severity, c.by, c.note].filter(Boolean).join(" · ");
      out.push("", `#### ${c.id ? `[${c.id}] ` : ""}${range(c)}${tags ? ` · ${tags}` : ""}`, "");
      if (lines === null) out.push("(the file no longer exists)", "");
      else if (c.start_line > lines.length) out.push(`(the file has ${lines.length} lines now)`, "");
      else {
        const ctx = contextLines(lines, c.start_line, Math.min(c.end_line, lines.length));
        const fence = fenceFor(ctx.join("\n"));
        out.push(`${fence}context`, ...ctx, fence, "");
      }
      out.push(c.body.trim());
      if (c.suggestion?.trim()) {
        const fence = fenceFor(c.suggestion);
        out.push("", `Suggested replacement for ${range(c)}:`, "", `${fence}suggestion`, c.suggestion.replace(/\s+$/, ""), fence);
      }
    }
  }
  return out.join("\n") + "\n";
}

const FILE_HEAD = /^### `([^`]+)`\s*$/;
const COMMENT_HEAD = /^#### (?:\[([^\]\s]+)\] )?lines? (\d+)(?:\s*[–-]\s*(\d+))?(?: · (.*))?$/;
const FENCE = /^(`{3,})(\w*)\s*$/;

/**
 * The comments of a Markdown text's "Line comments" sections (none when it has none). A prompt
 * may hold more than one such section (fix_request.md lists the comments in one line each, with
 * no `###` file headings, before the section with their context): each is read.
 */
export function parseLineComments(markdown: string): LineCommentMd[] {
  const lines = markdown.split("\n");
  let inSection = false;
  const out: LineCommentMd[] = [];
  let file: string | null = null;
  let cur: (LineCommentMd & { text: string[]; sugg: string[] | null }) | null = null;
  const flush = () => {
    if (!cur) return;
    const { text, sugg, ...c } = cur as LineCommentMd & { text: string[]; sugg: string[] | null };
    const body = text
      .join("\n")
      .replace(/\n*Suggested replacement for lines? [^\n]*:\s*$/, "")
      .trim();
    out.push({ ...c, body, ...(sugg ? { suggestion: sugg.join("\n") } : {}) });
    cur = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^#{1,2} /.test(l)) {
      flush();
      inSection = l.trim() === LINE_COMMENTS_HEADING;
      file = null;
      continue;
    }
    if (!inSection) continue;
    const f = FILE_HEAD.exec(l);
    if (f) {
      flush();
      file = f[1]!;
      continue;
    }
    const h = COMMENT_HEAD.exec(l);
    if (h && file) {
      flush();
      const tags = (h[4] ?? "").split(" · ").filter(Boolean);
      const start = Number(h[2]);
      const next: LineCommentMd & { text: string[]; sugg: string[] | null } = {
        file,
        start_line: start,
        end_line: h[3] ? Number(h[3]) : start,
        body: "",
        text: [],
        sugg: null,
      };
      if (h[1]) next.id = h[1];
      if (tags[0]) next.severity = tags[0];
      if (tags[1]) next.by = tags[1];
      if (tags.length > 2) next.note = tags.slice(2).join(" · ");
      cur = next;
      continue;
    }
    if (!cur) continue;
    const fence = FENCE.exec(l);
    if (fence) {
      const close = fence[1]!;
      const block: string[] = [];
      let j = i + 1;
      while (j < lines.length && lines[j]!.trim() !== close) block.push(lines[j++]!);
      i = j;
      if (fence[2] === "suggestion") cur.sugg = block;
      else if (fence[2] !== "context") cur.text.push(l, ...block, close);
      continue;
    }
    cur.text.push(l);
  }
  flush();
  return out;
}

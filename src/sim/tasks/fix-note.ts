const MAX = 100;

/** One line of at most MAX characters, cut at a word with "…". */
function oneLine(text: string): string {
  const line = text.replace(/[*`]/g, "").replace(/\s+/g, " ").trim();
  if (line.length <= MAX) return line;
  const cut = line.lastIndexOf(" ", MAX - 1);
  return `${line.slice(0, cut > MAX / 2 ? cut : MAX - 1)}…`;
}

/**
 * What the fix request (07_review/fix_request.md, orchestrator/review-files.ts) asks first: a
 * finding's "- Issue: …" line, else a line comment's "- [id] file line N (severity): body".
 */
function firstFinding(request: string): string {
  const issue = /^\s*-\s*Issue:\s*(.+)$/im.exec(request)?.[1];
  if (issue) return issue;
  const comment = /^\s*-\s*\[[^\]]+\]\s*(.+?)\s*\([a-z]+\):\s*(.+)$/m.exec(request);
  if (comment) return `${comment[1]}: ${comment[2]}`;
  const check = /^## Check: (\S+) — (.+)$/m.exec(request);
  if (check) return `make the check ${check[1]} pass (it ${check[2]})`;
  return "the review findings";
}

/** The note the simulated fixer writes into the code it changes: the fix round and what it fixes. */
export function fixNote(round: number, request: string): string {
  return `fix round ${round}: ${oneLine(firstFinding(request))}`;
}

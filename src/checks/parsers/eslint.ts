import { int, lines, type OutputParser, type RawFinding } from "./types.ts";

// stylish: a line naming the file, then `  12:5  error  message  rule-id` under it
const STYLISH_FILE = /^(\/\S.*|[A-Za-z]:\\.*|\S+\.(?:[cm]?[jt]sx?|vue|svelte|astro|json|md))$/;
const STYLISH_ITEM = /^\s+(\d+):(\d+)\s+(error|warning)\s+(.+?)(?:\s{2,}(\S+))?\s*$/;
// unix: `/path/file.js:12:5: message [Error/rule-id]`
const UNIX = /^(.+?):(\d+):(\d+): (.*) \[(Error|Warning)(?:\/([^\]]+))?\]$/;

/** ESLint's stylish (default) and unix formats. */
export const parseEslint: OutputParser = (text) => {
  const findings: RawFinding[] = [];
  let file: string | null = null;
  for (const line of lines(text)) {
    const unix = UNIX.exec(line);
    if (unix) {
      const rule = unix[6] ? ` (${unix[6]})` : "";
      findings.push({
        file: unix[1],
        line: int(unix[2]),
        column: int(unix[3]),
        severity: unix[5] === "Error" ? "error" : "warning",
        message: `${unix[4]}${rule}`,
      });
      continue;
    }
    const item = file ? STYLISH_ITEM.exec(line) : null;
    if (item && file) {
      const rule = item[5] ? ` (${item[5]})` : "";
      findings.push({ file, line: int(item[1]), column: int(item[2]), severity: item[3] as "error" | "warning", message: `${item[4]}${rule}` });
      continue;
    }
    if (STYLISH_FILE.test(line.trim()) && !line.startsWith(" ")) file = line.trim();
    else if (line.trim() === "") file = null;
  }
  return { findings };
};

import { locateJsonError } from "./json-locate.ts";
import type { Problem } from "./problems.ts";
import { parseYamlSafe } from "./yaml-safe.ts";
import { yamlLib } from "./yaml-lib.ts";

export type Parsed = { ok: true; data: unknown } | { ok: false; problems: Problem[] };

/** JSON text to data; a syntax error carries its line and column. */
export function parseJsonText(text: string): Parsed {
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch (e) {
    const at = locateJsonError(text);
    const message = at ? `JSON syntax error at line ${at.line}, column ${at.column}: ${at.message}` : `JSON syntax error: ${(e as Error).message}`;
    return { ok: false, problems: [{ path: "", message }] };
  }
}

/** A structured file's text to data: JSON or YAML (alias bombs refused), never empty. */
export function parseStructured(syntax: "json" | "yaml", text: string): Parsed {
  if (text.trim().length === 0) return { ok: false, problems: [{ path: "", message: "file is empty" }] };
  return syntax === "json" ? parseJsonText(text) : parseYamlSafe(text);
}

/** As parseStructured, and the top level must be a mapping (every artifact is one). */
export function parseMapping(syntax: "json" | "yaml", text: string): Parsed {
  const parsed = parseStructured(syntax, text);
  if (!parsed.ok) return parsed;
  const data = parsed.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return {
      ok: false,
      problems: [
        { path: "", message: `top level must be a mapping of fields, got ${Array.isArray(data) ? "a list" : data === null ? "nothing" : typeof data}` },
      ],
    };
  }
  return parsed;
}

/** Data as the text of a JSON (pretty, newline-terminated) or YAML file. */
export function formatStructured(syntax: "json" | "yaml", value: unknown): string {
  return syntax === "json" ? JSON.stringify(value, null, 2) + "\n" : yamlLib().stringify(value);
}

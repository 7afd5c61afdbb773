import { readFile } from "node:fs/promises";
import YAML from "yaml";
import { KIND_SPECS, type ArtifactKind, type ArtifactValue, type Problem } from "./kinds.ts";
import { locateJsonError } from "./json-locate.ts";
import { zodProblems } from "./problems.ts";

export type ArtifactResult<K extends ArtifactKind> = { ok: true; value: ArtifactValue<K> } | { ok: false; problems: Problem[] };

type Syntax = { ok: true; data: unknown } | { ok: false; problems: Problem[] };

function parseYaml(text: string): Syntax {
  const doc = YAML.parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    return {
      ok: false,
      problems: doc.errors.map((e) => {
        const pos = e.linePos?.[0];
        const where = pos ? `line ${pos.line}, column ${pos.col}: ` : "";
        return { path: "", message: `YAML syntax error at ${where}${e.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?\s*$/, "")}` };
      }),
    };
  }
  return { ok: true, data: doc.toJS() };
}

function parseJson(text: string): Syntax {
  try {
    return { ok: true, data: JSON.parse(text) };
  } catch (e) {
    const at = locateJsonError(text);
    const message = at ? `JSON syntax error at line ${at.line}, column ${at.column}: ${at.message}` : `JSON syntax error: ${(e as Error).message}`;
    return { ok: false, problems: [{ path: "", message }] };
  }
}

/**
 * Parse and validate one artifact's text against its contract. Syntax errors carry line and
 * column; contract violations carry the field path. Markdown kinds must be non-blank.
 */
export function parseArtifact<K extends ArtifactKind>(kind: K, text: string): ArtifactResult<K> {
  const spec = KIND_SPECS[kind];
  if (spec.syntax === "markdown") {
    if (text.trim().length === 0) return { ok: false, problems: [{ path: "", message: `${kind} is empty; it must have content` }] };
    return { ok: true, value: text as ArtifactValue<K> };
  }
  if (text.trim().length === 0) return { ok: false, problems: [{ path: "", message: "file is empty" }] };
  const parsed = spec.syntax === "json" ? parseJson(text) : parseYaml(text);
  if (!parsed.ok) return parsed;
  const data = parsed.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    return { ok: false, problems: [{ path: "", message: `top level must be a mapping of fields, got ${Array.isArray(data) ? "a list" : data === null ? "nothing" : typeof data}` }] };
  }
  const result = spec.schema.safeParse(data);
  if (!result.success) return { ok: false, problems: zodProblems(result.error, data) };
  return { ok: true, value: result.data as ArtifactValue<K> };
}

/** Read and validate an artifact file; a missing or unreadable file is a problem, not an exception. */
export async function readArtifact<K extends ArtifactKind>(kind: K, absPath: string): Promise<ArtifactResult<K>> {
  let text: string;
  try {
    text = await readFile(absPath, "utf8");
  } catch (e: any) {
    if (e?.code === "ENOENT") return { ok: false, problems: [{ path: "", message: "file not found" }] };
    if (e?.code === "EISDIR") return { ok: false, problems: [{ path: "", message: "is a directory, not a file" }] };
    return { ok: false, problems: [{ path: "", message: `cannot read file: ${e?.message ?? String(e)}` }] };
  }
  return parseArtifact(kind, text);
}

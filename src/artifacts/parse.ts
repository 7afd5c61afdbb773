import { readRegularFile } from "../effects/fs/read-regular.ts";
import { parseMapping } from "../session/syntax.ts";
import { KIND_SPECS, type ArtifactKind, type ArtifactValue, type Problem } from "./kinds.ts";
import { zodProblems } from "./problems.ts";

export type ArtifactResult<K extends ArtifactKind> = { ok: true; value: ArtifactValue<K> } | { ok: false; problems: Problem[] };

/**
 * Parse and validate one artifact's text against its contract. Syntax errors carry line and
 * column; contract violations carry the field path; YAML alias bombs are refused by the key
 * that holds them. Markdown kinds must be non-blank.
 */
export function parseArtifact<K extends ArtifactKind>(kind: K, text: string): ArtifactResult<K> {
  const spec = KIND_SPECS[kind];
  if (spec.syntax === "markdown") {
    if (text.trim().length === 0) return { ok: false, problems: [{ path: "", message: `${kind} is empty; it must have content` }] };
    return { ok: true, value: text as ArtifactValue<K> };
  }
  const parsed = parseMapping(spec.syntax, text);
  if (!parsed.ok) return parsed;
  const result = spec.schema.safeParse(parsed.data);
  if (!result.success) return { ok: false, problems: zodProblems(result.error, parsed.data) };
  return { ok: true, value: result.data as ArtifactValue<K> };
}

/**
 * Read and validate an artifact file; a missing, unreadable or irregular file (a FIFO, a
 * device) or one past the size limit is a problem, not an exception or a hang.
 */
export async function readArtifact<K extends ArtifactKind>(kind: K, absPath: string): Promise<ArtifactResult<K>> {
  const r = await readArtifactBytes(kind, absPath);
  return r.ok ? { ok: true, value: r.value } : r;
}

/**
 * Like readArtifact, and also returns the bytes of exactly the text that was validated (the file
 * is read once), so a caller can keep a copy of precisely what it checked.
 */
export async function readArtifactBytes<K extends ArtifactKind>(
  kind: K,
  absPath: string,
): Promise<(ArtifactResult<K> & { ok: false }) | { ok: true; value: ArtifactValue<K>; bytes: Buffer }> {
  const read = readRegularFile(absPath);
  if (!read.ok) return { ok: false, problems: [{ path: "", message: read.message }] };
  const r = parseArtifact(kind, read.text);
  return r.ok ? { ok: true, value: r.value, bytes: Buffer.from(read.text, "utf8") } : r;
}

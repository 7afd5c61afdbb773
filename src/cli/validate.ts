import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ARTIFACT_KINDS, inferKind, isArtifactKind, type ArtifactKind } from "../artifacts/kinds.ts";
import { readArtifact } from "../artifacts/parse.ts";
import type { ParsedArgs } from "./args.ts";
import { ArtifactKindUnknown, FileNotFound, NotAFile } from "./errors.ts";
import type { validate } from "./specs/setup.ts";

/** `agentmux validate <file> [--kind K]`: the same validation the MCP tools and the orchestrator use. */
export async function run(args: ParsedArgs<typeof validate>): Promise<number> {
  const file = args.positionals[0]!;
  const given = args.flags.kind;
  let kind: ArtifactKind;
  if (given !== undefined && isArtifactKind(given)) kind = given; // the parser refused other kinds
  else {
    const inferred = inferKind(file);
    if (!inferred) throw new ArtifactKindUnknown({ file, kinds: ARTIFACT_KINDS });
    kind = inferred;
  }
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {
    throw new FileNotFound({ file });
  }
  if (!isFile) throw new NotAFile({ file });
  const result = await readArtifact(kind, resolve(file));
  if (result.ok) {
    process.stdout.write(`✓ ${file}: valid ${kind}\n`);
    return 0;
  }
  for (const p of result.problems) process.stdout.write(p.path ? `${file}: ${p.path}: ${p.message}\n` : `${file}: ${p.message}\n`);
  return 1;
}

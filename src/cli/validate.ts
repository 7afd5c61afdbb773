import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ARTIFACT_KINDS, inferKind, isArtifactKind, type ArtifactKind } from "../artifacts/kinds.ts";
import { readArtifact } from "../artifacts/parse.ts";
import { AgentmuxError } from "../errors.ts";
import { usage, type ParsedArgs } from "./args.ts";
import type { validate } from "./specs/setup.ts";

/** `agentmux validate <file> [--kind K]`: the same validation the MCP tools and the orchestrator use. */
export async function run(args: ParsedArgs<typeof validate>): Promise<number> {
  const file = args.positionals[0]!;
  const given = args.flags.kind;
  let kind: ArtifactKind;
  if (given !== undefined && isArtifactKind(given)) kind = given; // the parser refused other kinds
  else {
    const inferred = inferKind(file);
    if (!inferred) throw usage("validate", `cannot tell the kind of "${file}" from its name; pass --kind (one of: ${ARTIFACT_KINDS.join(", ")})`);
    kind = inferred;
  }
  let isFile = false;
  try {
    isFile = statSync(file).isFile();
  } catch {
    throw new AgentmuxError("usage", "file not found", { where: file, hint: "check the path", exitCode: 2 });
  }
  if (!isFile) throw new AgentmuxError("usage", "is not a file", { where: file, exitCode: 2 });
  const result = await readArtifact(kind, resolve(file));
  if (result.ok) {
    process.stdout.write(`✓ ${file}: valid ${kind}\n`);
    return 0;
  }
  for (const p of result.problems) process.stdout.write(p.path ? `${file}: ${p.path}: ${p.message}\n` : `${file}: ${p.message}\n`);
  return 1;
}

import { statSync } from "node:fs";
import { resolve } from "node:path";
import { ARTIFACT_KINDS, inferKind, isArtifactKind, type ArtifactKind } from "../artifacts/kinds.ts";
import { readArtifact } from "../artifacts/parse.ts";
import { AgentmuxError } from "../errors.ts";
import { parseArgs, str, usage } from "./args.ts";

const HELP = `Usage: agentmux validate <file> [--kind KIND]

Check one artifact file against its contract. The kind is inferred from the file name
(plan.yaml, review_<role>.yaml, done_<N>.json, approval.json, state.json, .agentmux/config.yaml, …)
or given with --kind. Kinds: ${ARTIFACT_KINDS.join(", ")}.

Exit status: 0 valid, 1 invalid, 2 usage error (unknown kind, missing file).
`;

/** `agentmux validate <file> [--kind K]`: the same validation the MCP tools and the orchestrator use. */
export async function run(argv: string[]): Promise<number> {
  const args = parseArgs("validate", argv, { flags: { kind: { type: "string" } }, aliases: { k: "kind" }, maxPositionals: 1 });
  if (args.flags.help) {
    process.stdout.write(HELP);
    return 0;
  }
  const file = args.positionals[0];
  if (!file) throw usage("validate", "missing the file to check");
  const given = str(args.flags.kind);
  let kind: ArtifactKind;
  if (given !== undefined) {
    if (!isArtifactKind(given)) throw usage("validate", `unknown kind "${given}"; valid kinds: ${ARTIFACT_KINDS.join(", ")}`);
    kind = given;
  } else {
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

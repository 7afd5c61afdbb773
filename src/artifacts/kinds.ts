import { basename, dirname } from "node:path";
import type { z } from "zod";
import { DoneArtifact } from "../schema/artifacts/done.ts";
import { Review } from "../schema/artifacts/review.ts";
import { Config } from "../schema/config.ts";
import { SESSION_FILES } from "../protocol/files.ts";
import type { ArtifactKind } from "./kind-names.ts";

export type { Problem } from "../session/problems.ts";

export { ARTIFACT_KINDS, isArtifactKind, type ArtifactKind } from "./kind-names.ts";

export type Syntax = "yaml" | "json" | "markdown";

/**
 * How each kind is read: its syntax and the zod schema its content must satisfy — for session
 * files, the registry's (src/protocol/files.ts).
 */
export const KIND_SPECS = {
  plan: { syntax: "yaml", schema: SESSION_FILES.planYaml.schema },
  execution_plan: { syntax: "yaml", schema: SESSION_FILES.executionPlan.schema },
  review: { syntax: "yaml", schema: Review },
  approval: { syntax: "json", schema: SESSION_FILES.approval.schema },
  changes: { syntax: "markdown", schema: SESSION_FILES.changes.schema },
  done: { syntax: "json", schema: DoneArtifact },
  state: { syntax: "json", schema: SESSION_FILES.state.schema },
  // YAML is a superset of JSON, so config.json parses here too
  config: { syntax: "yaml", schema: Config },
  architecture: { syntax: "markdown", schema: undefined },
  design: { syntax: "markdown", schema: undefined },
  summary: { syntax: "markdown", schema: undefined },
  requirements: { syntax: "markdown", schema: undefined },
} as const satisfies Record<ArtifactKind, { syntax: Syntax; schema: z.ZodType | undefined }>;

type SchemaOf<K extends ArtifactKind> = (typeof KIND_SPECS)[K]["schema"];
/** The parsed value of an artifact of kind K (markdown kinds are their text). */
export type ArtifactValue<K extends ArtifactKind> = SchemaOf<K> extends z.ZodType ? z.output<SchemaOf<K>> : string;

const EXACT_NAMES: Record<string, ArtifactKind> = {
  "plan.yaml": "plan",
  "execution_plan.yaml": "execution_plan",
  "approval.json": "approval",
  "changes.md": "changes",
  "state.json": "state",
  "architecture.md": "architecture",
  "design.md": "design",
  "summary.md": "summary",
  "requirements.md": "requirements",
};

/** The artifact kind a protocol file name implies, or undefined when the name is not a protocol name. */
export function inferKind(filePath: string): ArtifactKind | undefined {
  const name = basename(filePath);
  const exact = EXACT_NAMES[name];
  if (exact) return exact;
  if (/^review_[A-Za-z0-9_-]+\.ya?ml$/.test(name) || name === "review.yaml") return "review";
  if (/^done_\d+\.json$/.test(name)) return "done";
  if (/^config\.(ya?ml|json)$/.test(name)) {
    const parent = basename(dirname(filePath));
    if (parent === ".agentmux" || parent === "agentmux") return "config";
  }
  return undefined;
}

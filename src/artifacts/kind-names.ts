/** The artifact kinds `agentmux validate` knows, without their schemas: the command table loads these at every start. */
export const ARTIFACT_KINDS = [
  "plan",
  "execution_plan",
  "review",
  "approval",
  "changes",
  "done",
  "state",
  "config",
  "architecture",
  "design",
  "summary",
  "requirements",
] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const isArtifactKind = (k: string): k is ArtifactKind => (ARTIFACT_KINDS as readonly string[]).includes(k);

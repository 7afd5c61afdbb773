/** Reading and validating agentmux artifact files: shared by the MCP tools, the orchestrator and `agentmux validate`. */
export { ARTIFACT_KINDS, KIND_SPECS, inferKind, isArtifactKind } from "./kinds.ts";
export type { ArtifactKind, ArtifactValue, Problem } from "./kinds.ts";
export { parseArtifact, readArtifact, readArtifactBytes } from "./parse.ts";
export type { ArtifactResult } from "./parse.ts";
export { checkDoneArtifact } from "./gate.ts";
export { formatPath, formatProblem, zodProblems } from "./problems.ts";
export { locateJsonError } from "./json-locate.ts";

/** Field-path problems are shared by every file agentmux reads (src/session/problems.ts). */
export { formatPath, formatProblem, zodProblems, type Problem } from "../session/problems.ts";

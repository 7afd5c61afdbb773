import { existsSync, readFileSync } from "node:fs";
import { extname } from "node:path";
import { parseDocument } from "yaml";
import { AgentmuxError } from "../errors.ts";
import { configError, describeValue } from "./validate.ts";
import type { Tree } from "./merge.ts";

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/**
 * Parse one config text (YAML 1.2, which also reads JSON). An empty file is `{}`; syntax
 * errors name the file, line and column; a top level that is not a mapping is an error.
 */
export function parseConfigText(text: string, file: string): Tree {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const err = doc.errors[0];
  if (err) {
    const pos = err.linePos?.[0];
    const at = pos ? `${pos.line}:${pos.col}` : "?";
    const first = err.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new AgentmuxError("config", `${file}:${at}: YAML syntax error: ${first}`, {
      where: "config",
      hint: "fix the syntax at that line and column",
      exitCode: 2,
    });
  }
  const data: unknown = doc.toJS();
  if (data === null || data === undefined) return {};
  if (typeof data !== "object" || Array.isArray(data)) {
    throw configError(file, [`(top level): must be a mapping of keys to values, got ${describeValue(data)}`]);
  }
  return data as Tree;
}

/** Read and parse one config file; `display` is how messages name it. */
export function readConfigFile(path: string, display: string): Tree {
  if (!EXTENSIONS.has(extname(path).toLowerCase())) {
    throw new AgentmuxError("config", `${display}: unsupported config file type "${extname(path) || "(none)"}"`, {
      where: "config",
      hint: "use a .yaml, .yml or .json file",
      exitCode: 2,
    });
  }
  if (!existsSync(path)) {
    throw new AgentmuxError("config", `${display}: file not found`, { where: "config", hint: "check the --config path", exitCode: 2 });
  }
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    throw new AgentmuxError("config", `${display}: cannot read: ${(e as Error).message}`, { where: "config", exitCode: 2, cause: e });
  }
  return parseConfigText(text, display);
}

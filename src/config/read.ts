import { existsSync } from "node:fs";
import { readRegularFile } from "../effects/fs/read-regular.ts";
import { aliasProblem, parseYamlDocument, RESERVED_KEY_MESSAGE, reservedKeyPath } from "../session/yaml-safe.ts";
import { extname } from "node:path";
import { describeValue } from "./validate.ts";
import { ConfigFileNotFound, ConfigFileType, ConfigInvalid, ConfigUnreadable, ConfigYamlSyntax } from "./errors.ts";
import type { Tree } from "./merge.ts";
import { isPlainYaml } from "./plain-yaml.ts";

const EXTENSIONS = new Set([".yaml", ".yml", ".json"]);

/**
 * Parse one config text (YAML 1.2, which also reads JSON). An empty file is `{}`; syntax
 * errors name the file, line and column; an alias bomb and a `__proto__` key name the key
 * that holds them; a top level that is not a mapping is an error.
 */
export function parseConfigText(text: string, file: string): Tree {
  return plainParse(text) ?? checkedParse(text, file);
}

/** The yaml library's parse with every check (what parseConfigText gives for any text). */
export function checkedParse(text: string, file: string): Tree {
  const doc = parseYamlDocument(text);
  const err = doc.errors[0];
  if (err) {
    const pos = err.linePos?.[0];
    const detail = err.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new ConfigYamlSyntax({ file, line: pos?.line, col: pos?.col, detail });
  }
  const bomb = aliasProblem(doc);
  if (bomb) throw new ConfigInvalid({ issues: [{ file, problem: `${bomb.path || "(top level)"}: ${bomb.message}` }] });
  const reserved = reservedKeyPath(doc.contents);
  if (reserved !== undefined) throw new ConfigInvalid({ issues: [{ file, problem: `${reserved}: ${RESERVED_KEY_MESSAGE}` }] });
  const data: unknown = doc.toJS({ maxAliasCount: -1 });
  if (data === null || data === undefined) return {};
  if (typeof data !== "object" || Array.isArray(data)) {
    throw new ConfigInvalid({ issues: [{ file, problem: `(top level): must be a mapping of keys to values, got ${describeValue(data)}` }] });
  }
  return data as Tree;
}

/** The text read by Bun's native parser when it is plain YAML (plain-yaml.ts) and a mapping, else null (the checked parse decides). */
function plainParse(text: string): Tree | null {
  if (!isPlainYaml(text)) return null;
  let data: unknown;
  try {
    data = Bun.YAML.parse(text);
  } catch {
    return null;
  }
  if (data === null || data === undefined) return {};
  return typeof data === "object" && !Array.isArray(data) ? (data as Tree) : null;
}

/** Read and parse one config file; `display` is how messages name it. */
export function readConfigFile(path: string, display: string): Tree {
  // a file that is not there is named so first: its name's extension is beside the point then
  if (!EXTENSIONS.has(extname(path).toLowerCase())) {
    if (!existsSync(path)) throw new ConfigFileNotFound({ file: display });
    throw new ConfigFileType({ file: display, ext: extname(path) });
  }
  // only a regular file, at most 16 MB: a FIFO or /dev/zero is refused at once, never read
  const read = readRegularFile(path);
  if (!read.ok && read.reason === "missing") throw new ConfigFileNotFound({ file: display });
  if (!read.ok) throw new ConfigUnreadable({ file: display, reason: read.message });
  return parseConfigText(read.text, display);
}

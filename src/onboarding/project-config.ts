import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isMap, parseDocument, type Document } from "yaml";
import { loadConfig, PROJECT_CONFIG_NAMES, type LoadedConfig } from "../config/load.ts";
import { parseConfigText } from "../config/read.ts";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { ConfigNotYaml } from "../config/errors.ts";
import { AGENTMUX_DIR } from "../protocol/paths.ts";

export const PROJECT_CONFIG = join(AGENTMUX_DIR, "config.yaml");
/** A copy of the config JSON Schema next to the config, so editors complete keys offline. */
export const PROJECT_SCHEMA = join(AGENTMUX_DIR, "config.schema.json");
export const SCHEMA_LINE = "# yaml-language-server: $schema=./config.schema.json";

/** One change to a config file: set `value` at `path`, or remove the key when value is undefined. */
export type ConfigEdit = { path: string[]; value?: unknown };

/**
 * The project config file init/configure edit: `.agentmux/config.yaml` (or `.yml`).
 * A project that uses config.json is refused: rewriting it as YAML would change its format.
 */
export function editableConfigPath(projectDir: string): string {
  const existing = PROJECT_CONFIG_NAMES.map((n) => join(projectDir, AGENTMUX_DIR, n)).find((p) => existsSync(p));
  if (existing?.endsWith(".json")) {
    throw new ConfigNotYaml({ file: join(AGENTMUX_DIR, "config.json") });
  }
  return existing ?? join(projectDir, PROJECT_CONFIG);
}

export function readText(path: string): string | null {
  return existsSync(path) ? readFileSync(path, "utf8") : null;
}

/**
 * Apply edits to a config text in place with the yaml Document API: comments, blank lines
 * and key order survive; new keys go at the end of their map; maps emptied by a removal are
 * removed too. The first line is the yaml-language-server schema line.
 */
export function editConfigText(text: string | null, edits: ConfigEdit[], file = PROJECT_CONFIG): string {
  if (text !== null) parseConfigText(text, file); // syntax errors name the file, line and column
  const doc = parseDocument(text ?? "");
  if (doc.getIn(["version"]) === undefined) setFirst(doc, "version", 2);
  for (const edit of edits) {
    if (edit.value === undefined) removeKey(doc, edit.path);
    else if (!sameValue(doc.getIn(edit.path), edit.value)) doc.setIn(edit.path, edit.value);
  }
  let out = doc.toString({ lineWidth: 0 });
  if (!/^# yaml-language-server:/.test(out)) out = `${SCHEMA_LINE}\n${out}`;
  return out;
}

function setFirst(doc: Document, key: string, value: unknown): void {
  if (!isMap(doc.contents)) {
    doc.setIn([key], value);
    return;
  }
  doc.contents.items.unshift(doc.createPair(key, value) as never);
}

function sameValue(node: unknown, value: unknown): boolean {
  const plain = node && typeof node === "object" && "toJSON" in node ? (node as { toJSON(): unknown }).toJSON() : node;
  return JSON.stringify(plain) === JSON.stringify(value);
}

function removeKey(doc: Document, path: string[]): void {
  if (!doc.hasIn(path)) return;
  doc.deleteIn(path);
  for (let n = path.length - 1; n > 0; n--) {
    const parent = doc.getIn(path.slice(0, n));
    if (isMap(parent) && parent.items.length === 0) doc.deleteIn(path.slice(0, n));
    else break;
  }
}

/** The project file's own values (not merged), or {} when there is none. */
export function projectFileTree(projectDir: string): Record<string, unknown> {
  const path = editableConfigPath(projectDir);
  const text = readText(path);
  return text === null ? {} : parseConfigText(text, PROJECT_CONFIG);
}

/**
 * Load the layered config as it would be with `text` as the project file, without touching
 * the project: the text is checked in a scratch project, so errors name `.agentmux/config.yaml`
 * and the key. `text` null = what the lower layers (built-in + user config) give on their own.
 */
export function loadWith(text: string | null, env: Record<string, string | undefined> = process.env): LoadedConfig {
  const scratch = mkdtempSync(join(tmpdir(), "amx-config-check-"));
  try {
    if (text !== null) {
      mkdirSync(join(scratch, AGENTMUX_DIR));
      writeFileSync(join(scratch, PROJECT_CONFIG), text);
    }
    return loadConfig({ projectDir: scratch, env });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Validate, then write atomically; on a validation error nothing is written. Returns whether the bytes changed. */
export function writeConfigChecked(path: string, text: string, env?: Record<string, string | undefined>): boolean {
  loadWith(text, env);
  if (readText(path) === text) return false;
  writeFileAtomic(path, text);
  return true;
}

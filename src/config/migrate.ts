import type { Document, Pair, YAMLMap } from "yaml";
import { ROLES, REVIEWER_ROLES } from "../schema/catalog.ts";
import { yamlLib } from "../session/yaml-lib.ts";

/**
 * `agentmux config migrate`: a config of the Python agentmux (its keys:
 * shared/reference/agentmux-python-inventory.md §7.2) rewritten as ours. The YAML document is
 * edited in place, so comments on the keys that stay (and on renamed ones) are kept; every key
 * that could not be carried over is named in `notes` with why.
 */
export type Migration = { text: string; notes: string[] };

/** Built-in providers whose trust dialogs and batch modes agentmux already knows better. */
const BUILTIN_PROVIDERS = new Set(["claude", "codex", "gemini", "opencode", "copilot", "qwen"]);
const KEPT_PROVIDER_KEYS = new Set(["command", "model_flag", "default_model", "role_args", "default_role_args", "model_args", "single_coder", "sub_agent_tool"]);
const ROLE_NAMES = new Set<string>(ROLES);

export function migrateConfigText(text: string): Migration {
  const { parseDocument, isMap } = yamlLib();
  const doc = parseDocument(text);
  const notes: string[] = [];
  const top = doc.contents;
  if (!isMap(top)) return { text: "version: 2\n", notes: ["(top level): not a mapping; nothing to carry over"] };
  for (const pair of [...top.items]) {
    const key = keyOf(pair);
    if (key === "version") continue;
    if (key === "defaults") migrateDefaults(doc, notes);
    else if (key === "github") keepOnly(doc, ["github"], new Set(["base_branch", "draft", "branch_prefix"]), notes, "not a GitHub setting agentmux has");
    else if (key === "providers") migrateProviders(doc, notes);
    else if (key === "roles") migrateRoles(doc, notes);
    else drop(doc, [key], notes, "not a setting agentmux has");
  }
  doc.set("version", 2);
  return { text: doc.toString({ lineWidth: 0 }), notes };
}

function migrateDefaults(doc: Document, notes: string[]): void {
  const skip = takeValue(doc, ["defaults", "skip_final_approval"]);
  const requireAt = doc.hasIn(["defaults", "require_final_approval"]) ? "defaults.require_final_approval" : "defaults.completion.require_final_approval";
  const require = takeValue(doc, requireAt.split("."));
  if (skip !== undefined) setWithNote(doc, ["defaults", "completion", "skip_final_approval"], Boolean(skip.value), notes, "defaults.skip_final_approval", skip.pair);
  else if (require !== undefined) setWithNote(doc, ["defaults", "completion", "skip_final_approval"], !require.value, notes, requireAt, require.pair);
  drop(doc, ["defaults", "session_name"], notes, "agentmux names each session after its request");
  drop(doc, ["defaults", "compression"], notes, "context compression through headroom is not part of agentmux");
  for (const k of ["tier", "profile"]) drop(doc, ["defaults", k], notes, "tiers and profiles are gone: name the provider and model");
  keepOnly(doc, ["defaults"], new Set(["provider", "model", "max_review_iterations", "completion"]), notes, "not a default agentmux has");
  keepOnly(doc, ["defaults", "completion"], new Set(["skip_final_approval"]), notes, "not a completion setting agentmux has");
}

function migrateProviders(doc: Document, notes: string[]): void {
  const { isMap } = yamlLib();
  const providers = doc.getIn(["providers"], true);
  if (!isMap(providers)) return;
  for (const pair of providers.items) {
    const name = keyOf(pair);
    const at = ["providers", name];
    if (!isMap(pair.value)) continue;
    const builtin = BUILTIN_PROVIDERS.has(name);
    const snippet = takeValue(doc, [...at, "trust_snippet"]);
    const trustKey = takeValue(doc, [...at, "trust_key"]);
    if (snippet?.value && !builtin) {
      doc.setIn([...at, "trust"], doc.createNode([{ detect: escapeRegex(String(snippet.value)), keys: [String(trustKey?.value ?? "Enter")] }]));
      notes.push(`providers.${name}.trust_snippet: now providers.${name}.trust (a regex of the dialog and the keys that accept it)`);
    } else if (snippet || trustKey) notes.push(`providers.${name}.trust_snippet: dropped; agentmux knows ${name}'s trust dialogs`);
    const batch = takeValue(doc, [...at, "batch_command"]);
    const legacy = takeValue(doc, [...at, "batch_subcommand"]);
    if (builtin && (batch || legacy)) notes.push(`providers.${name}.batch_command: dropped; agentmux knows how ${name} runs researchers`);
    else if (batch && typeof batch.value === "object" && batch.value !== null) {
      const b = batch.value as { verb?: unknown; mode?: unknown };
      const verb = typeof b.verb === "string" ? b.verb.trim() : "";
      doc.setIn([...at, "batch"], doc.createNode({ args: verb ? verb.split(/\s+/) : [], mode: ["flag", "positional", "stdin"].includes(String(b.mode)) ? String(b.mode) : "positional" }));
      notes.push(`providers.${name}.batch_command: now providers.${name}.batch (args and mode)`);
    } else if (legacy && typeof legacy.value === "string" && legacy.value.trim()) {
      const sub = legacy.value.trim();
      const mode = sub.startsWith("-") ? "flag" : sub === "exec" && name === "codex" ? "stdin" : "positional";
      doc.setIn([...at, "batch"], doc.createNode({ args: [sub], mode }));
      notes.push(`providers.${name}.batch_subcommand: now providers.${name}.batch (mode ${mode})`);
    }
    renameReviewerKeys(doc, [...at, "role_args"], notes);
    keepOnly(doc, at, new Set([...KEPT_PROVIDER_KEYS, "trust", "batch"]), notes, "not a provider setting agentmux has");
  }
}

function migrateRoles(doc: Document, notes: string[]): void {
  const { isMap } = yamlLib();
  for (const k of ["tier", "profile"]) drop(doc, ["roles", "reviewer", k], notes, "tiers and profiles are gone: name the provider and model");
  renameReviewerKeys(doc, ["roles"], notes);
  const roles = doc.getIn(["roles"], true);
  if (!isMap(roles)) return;
  for (const pair of [...roles.items]) {
    let role = keyOf(pair);
    const hyphenated = role.replaceAll("_", "-");
    if (!ROLE_NAMES.has(role) && ROLE_NAMES.has(hyphenated) && !doc.hasIn(["roles", hyphenated])) {
      const moved = takeValue(doc, ["roles", role])!;
      doc.setIn(["roles", hyphenated], doc.createNode(moved.value));
      notes.push(`roles.${role}: now roles.${hyphenated}`);
      role = hyphenated;
    }
    if (!ROLE_NAMES.has(role)) {
      drop(doc, ["roles", role], notes, `not a role of agentmux (roles: ${ROLES.join(", ")})`);
      continue;
    }
    for (const k of ["tier", "profile"]) drop(doc, ["roles", role, k], notes, "tiers and profiles are gone: name the provider and model");
    keepOnly(doc, ["roles", role], new Set(["provider", "model", "args"]), notes, "not a role setting agentmux has");
  }
}

/** The Python tool's one `reviewer` role is agentmux's three reviewers: the entry goes to each. */
function renameReviewerKeys(doc: Document, at: string[], notes: string[]): void {
  const reviewer = takeValue(doc, [...at, "reviewer"]);
  if (!reviewer) return;
  for (const r of REVIEWER_ROLES) if (!doc.hasIn([...at, r])) doc.setIn([...at, r], doc.createNode(reviewer.value));
  notes.push(`${at.join(".")}.reviewer: now ${REVIEWER_ROLES.map((r) => `${at.join(".")}.${r}`).join(", ")} (agentmux runs three reviewers)`);
}

function keyOf(pair: Pair): string {
  const { isScalar } = yamlLib();
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

/** Remove the pair at `path`, returning its plain value and the pair (for its comments). */
function takeValue(doc: Document, path: string[]): { value: unknown; pair: Pair } | undefined {
  const { isMap } = yamlLib();
  const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
  if (!isMap(parent)) return undefined;
  const pair = (parent as YAMLMap).items.find((p) => keyOf(p) === path.at(-1));
  if (!pair) return undefined;
  const value = doc.getIn(path);
  doc.deleteIn(path);
  return { value: value && typeof value === "object" && "toJSON" in value ? (value as { toJSON(): unknown }).toJSON() : value, pair };
}

function setWithNote(doc: Document, path: string[], value: unknown, notes: string[], from: string, old: Pair): void {
  doc.setIn(path, value);
  const { isMap, isScalar } = yamlLib();
  const parent = doc.getIn(path.slice(0, -1), true);
  const moved = isMap(parent) ? (parent as YAMLMap).items.find((p) => keyOf(p) === path.at(-1)) : undefined;
  // the comment above the old key goes above the new one
  if (moved && isScalar(moved.key) && isScalar(old.key) && old.key.commentBefore) moved.key.commentBefore = old.key.commentBefore;
  notes.push(`${from}: now ${path.join(".")}${from.endsWith("require_final_approval") ? " (its opposite)" : ""}`);
}

function drop(doc: Document, path: string[], notes: string[], why: string): void {
  if (!doc.hasIn(path)) return;
  doc.deleteIn(path);
  notes.push(`${path.join(".")}: not carried over: ${why}`);
}

function keepOnly(doc: Document, at: string[], keep: Set<string>, notes: string[], why: string): void {
  const { isMap } = yamlLib();
  const map = doc.getIn(at, true);
  if (!isMap(map)) return;
  for (const pair of [...map.items]) {
    const key = keyOf(pair);
    if (!keep.has(key)) drop(doc, [...at, key], notes, why);
  }
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

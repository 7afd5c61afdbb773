import type { Document, Pair, YAMLMap } from "yaml";
import { ROLES, REVIEWER_ROLES } from "../schema/catalog.ts";
import { yamlLib } from "../session/yaml-lib.ts";
import { PYTHON_BUILTIN_PROVIDERS, sameValue } from "./python-defaults.ts";

/**
 * `agentmux config migrate`: a config of the Python agentmux (its keys:
 * shared/reference/agentmux-python-inventory.md §7.2) rewritten as ours. The YAML document is
 * edited in place, so comments on the keys that stay (and on renamed ones) are kept; every key
 * that could not be carried over is named in `notes` with why.
 */
export type Migration = {
  text: string;
  notes: string[];
  /** what the result still lacks, by key (`roles.coder.provider`): a provider agentmux does not have */
  unresolved: { key: string; problem: string }[];
};

const KEPT_PROVIDER_KEYS = new Set([
  "command",
  "model_flag",
  "default_model",
  "role_args",
  "default_role_args",
  "model_args",
  "single_coder",
  "sub_agent_tool",
]);
const ROLE_NAMES = new Set<string>(ROLES);

/** `builtins`: the providers agentmux has built in (its built-in config layer's). */
export function migrateConfigText(text: string, builtins: readonly string[]): Migration {
  const { parseDocument, isMap } = yamlLib();
  const doc = parseDocument(text);
  const notes: string[] = [];
  const top = doc.contents;
  if (!isMap(top)) return { text: "version: 2\n", notes: ["(top level): not a mapping; nothing to carry over"], unresolved: [] };
  renameLaunchers(doc, notes);
  for (const pair of [...top.items]) {
    const key = keyOf(pair);
    if (key === "version") continue;
    if (key === "defaults") migrateDefaults(doc, notes);
    else if (key === "github") keepOnly(doc, ["github"], new Set(["base_branch", "draft", "branch_prefix"]), notes, "not a GitHub setting agentmux has");
    else if (key === "providers") migrateProviders(doc, notes, new Set(builtins));
    else if (key === "roles") migrateRoles(doc, notes);
    else drop(doc, [key], notes, "not a setting agentmux has");
  }
  doc.set("version", 2);
  return { text: doc.toString({ lineWidth: 0 }), notes, unresolved: missingProviders(doc, new Set(builtins)) };
}

/** Version 1 named the providers `launchers:` (its docs' migration step 2). */
function renameLaunchers(doc: Document, notes: string[]): void {
  const { isMap } = yamlLib();
  const launchers = doc.getIn(["launchers"], true);
  if (!isMap(launchers) || !launchers.items.length || doc.has("providers")) return;
  const moved = takeValue(doc, ["launchers"])!;
  doc.set("providers", doc.createNode(moved.value));
  notes.push("launchers: now providers (its name before version 2)");
}

/**
 * Keys that still name a provider of the Python tool agentmux does not have (cursor, before
 * agentmux ships it) and that no providers entry of the result defines.
 */
function missingProviders(doc: Document, builtins: Set<string>): Migration["unresolved"] {
  const { isMap } = yamlLib();
  const refs: [string, unknown][] = [["defaults.provider", doc.getIn(["defaults", "provider"])]];
  const roles = doc.getIn(["roles"], true);
  if (isMap(roles)) for (const pair of roles.items) refs.push([`roles.${keyOf(pair)}.provider`, doc.getIn(["roles", keyOf(pair), "provider"])]);
  return refs
    .filter(
      (r): r is [string, string] => typeof r[1] === "string" && r[1] in PYTHON_BUILTIN_PROVIDERS && !builtins.has(r[1]) && !doc.hasIn(["providers", r[1]]),
    )
    .map(([key, name]) => ({ key, problem: `${key}: ${name}: not carried over: agentmux has no ${name} provider (yet); choose one it has for this key` }));
}

function migrateDefaults(doc: Document, notes: string[]): void {
  const skip = takeValue(doc, ["defaults", "skip_final_approval"]);
  const requireAt = doc.hasIn(["defaults", "require_final_approval"]) ? "defaults.require_final_approval" : "defaults.completion.require_final_approval";
  const require = takeValue(doc, requireAt.split("."));
  if (skip !== undefined)
    setWithNote(doc, ["defaults", "completion", "skip_final_approval"], Boolean(skip.value), notes, "defaults.skip_final_approval", skip.pair);
  else if (require !== undefined) setWithNote(doc, ["defaults", "completion", "skip_final_approval"], !require.value, notes, requireAt, require.pair);
  drop(doc, ["defaults", "session_name"], notes, "agentmux names each session after its request");
  drop(doc, ["defaults", "compression"], notes, "context compression through headroom is not part of agentmux");
  for (const k of ["tier", "profile"]) drop(doc, ["defaults", k], notes, "tiers and profiles are gone: name the provider and model");
  keepOnly(doc, ["defaults"], new Set(["provider", "model", "max_review_iterations", "completion"]), notes, "not a default agentmux has");
  keepOnly(doc, ["defaults", "completion"], new Set(["skip_final_approval"]), notes, "not a completion setting agentmux has");
}

function migrateProviders(doc: Document, notes: string[], builtins: Set<string>): void {
  const { isMap } = yamlLib();
  const providers = doc.getIn(["providers"], true);
  if (!isMap(providers)) return;
  for (const pair of [...providers.items]) {
    const name = keyOf(pair);
    const at = ["providers", name];
    if (!isMap(pair.value)) continue;
    const builtin = builtins.has(name);
    const python = PYTHON_BUILTIN_PROVIDERS[name];
    if (python && !builtin) {
      // a CLI the Python tool drives and agentmux does not (yet): its settings mean nothing here
      drop(doc, at, notes, `agentmux has no ${name} provider (yet)`);
      continue;
    }
    if (python) dropPythonDefaults(doc, name, python, notes);
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
      doc.setIn(
        [...at, "batch"],
        doc.createNode({ args: verb ? verb.split(/\s+/) : [], mode: ["flag", "positional", "stdin"].includes(String(b.mode)) ? String(b.mode) : "positional" }),
      );
      notes.push(`providers.${name}.batch_command: now providers.${name}.batch (args and mode)`);
    } else if (legacy && typeof legacy.value === "string" && legacy.value.trim()) {
      const sub = legacy.value.trim();
      const mode = sub.startsWith("-") ? "flag" : sub === "exec" && name === "codex" ? "stdin" : "positional";
      doc.setIn([...at, "batch"], doc.createNode({ args: [sub], mode }));
      notes.push(`providers.${name}.batch_subcommand: now providers.${name}.batch (mode ${mode})`);
    }
    renameReviewerKeys(doc, [...at, "role_args"], notes);
    keepOnly(doc, at, new Set([...KEPT_PROVIDER_KEYS, "trust", "batch"]), notes, "not a provider setting agentmux has");
    const left = doc.getIn(at, true);
    if (isMap(left) && !left.items.length) doc.deleteIn(at);
    else if (!builtin)
      notes.push(
        `providers.${name}: carried over as a provider of your own; set providers.${name}.mcp to the CLI whose MCP wiring it shares (claude, codex, gemini, opencode, copilot, qwen, cursor, agy), else its agents cannot call agentmux's tools`,
      );
  }
  if (!providers.items.length) doc.delete("providers");
}

/**
 * A value equal to the Python tool's built-in one is that tool's default, not the user's choice:
 * left out, so agentmux's own settings for the CLI apply. role_args is compared role by role.
 */
function dropPythonDefaults(doc: Document, name: string, python: Record<string, unknown>, notes: string[]): void {
  const { isMap } = yamlLib();
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(python)) {
    const at = ["providers", name, key];
    if (!doc.hasIn(at)) continue;
    const node = doc.getIn(at, true);
    if (key === "role_args" && isMap(node) && node.items.length) {
      const roles = node.items.map(keyOf).filter((role) => sameValue(plainAt(doc, [...at, role]), (value as Record<string, unknown>)[role]));
      for (const role of roles) doc.deleteIn([...at, role]);
      if (node.items.length) dropped.push(...roles.map((r) => `role_args.${r}`));
      else {
        doc.deleteIn(at);
        dropped.push("role_args");
      }
      continue;
    }
    if (!sameValue(plainAt(doc, at), value)) continue;
    doc.deleteIn(at);
    dropped.push(key);
  }
  if (dropped.length)
    notes.push(
      `providers.${name}: left out ${dropped.join(", ")}: the Python agentmux's built-in values; agentmux's own ${name} settings apply (docs/migrating.md)`,
    );
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

/** The plain value at `path` (a collection as JS data). */
function plainAt(doc: Document, path: string[]): unknown {
  const value = doc.getIn(path);
  return value && typeof value === "object" && "toJSON" in value ? (value as { toJSON(): unknown }).toJSON() : value;
}

/** Remove the pair at `path`, returning its plain value and the pair (for its comments). */
function takeValue(doc: Document, path: string[]): { value: unknown; pair: Pair } | undefined {
  const { isMap } = yamlLib();
  const parent = path.length > 1 ? doc.getIn(path.slice(0, -1), true) : doc.contents;
  if (!isMap(parent)) return undefined;
  const pair = (parent as YAMLMap).items.find((p) => keyOf(p) === path.at(-1));
  if (!pair) return undefined;
  const value = plainAt(doc, path);
  doc.deleteIn(path);
  return { value, pair };
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

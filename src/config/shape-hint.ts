import { stringify } from "yaml";

/** What a config keeps by name, as a mapping an error can show when it found another shape. */
const EXAMPLES: Record<string, Record<string, object>> = {
  checks: { test: { command: "npm test" }, lint: { command: "npm run lint", required: false } },
  providers: { mycli: { command: "mycli", role_args: { coder: ["--yolo"] } } },
  roles: { coder: { provider: "codex" }, reviewer_logic: { provider: "claude" } },
};

/** A list of `{name, …}` mappings with distinct names, as the mapping `name → the rest` it means; else null. */
function byName(list: unknown[]): Record<string, object> | null {
  const out: Record<string, object> = {};
  for (const item of list) {
    if (!item || typeof item !== "object" || Array.isArray(item)) return null;
    const { name, ...rest } = item as Record<string, unknown>;
    if (typeof name !== "string" || !name || name in out) return null;
    out[name] = rest;
  }
  return list.length ? out : null;
}

const indented = (key: string, value: object) =>
  stringify({ [key]: value })
    .trimEnd()
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");

/**
 * The problem text for a mapping (`record`: names → settings, `object`: fixed keys) that is
 * something else: the shape expected, and how to write it — the user's own list of `{name, …}`
 * rewritten as that mapping when it is one, else an example of the key's mapping when it has one.
 */
export function mappingExpected(key: string, expected: "record" | "object", got: string, value: unknown): string {
  const shape = expected === "record" ? "a mapping of names to their settings" : "a mapping of keys to values";
  const last = key.split(".").at(-1)!;
  const mine = Array.isArray(value) ? byName(value) : null;
  if (mine) return `${key}: expected ${shape}, got a list; this list written as that mapping:\n${indented(last, mine)}`;
  const example = EXAMPLES[key];
  return `${key}: expected ${shape}, got ${got === "null" ? got : `a ${got}`}${example ? `; for example:\n${indented(last, example)}` : ""}`;
}

/** The problem text for a list given one value: the value as the list of one it likely meant. */
export function listExpected(key: string, got: string, value: unknown): string {
  // a plain word stays bare in YAML; anything else is quoted
  const item = typeof value === "string" && /^[\w./@-]+$/.test(value) ? value : JSON.stringify(value);
  const one = value !== null && typeof value !== "object" ? `; write it as a list: [${item}]` : "";
  return `${key}: expected a list, got ${got === "null" ? got : `a ${got}`}${one}`;
}

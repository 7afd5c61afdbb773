import type { z } from "zod";
/** A contract violation: `path` is a field path like `groups[0].plans[1].index`, "" for the whole file. */
export type Problem = { path: string; message: string };

/** `["groups", 0, "plans", 1, "index"]` → `groups[0].plans[1].index`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else out += out === "" ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const seg of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = Reflect.get(v, seg);
  }
  return v;
}

const describe = (v: unknown): string => (v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "a mapping" : typeof v);

/**
 * zod issues as problems with field paths. Missing fields and unknown fields get their own
 * wording (zod's defaults, "expected string, received undefined", read poorly to an agent).
 * `at`: where in `input` the value zod checked sits (its path prefixes every problem's).
 */
export function zodProblems(error: z.ZodError, input: unknown, at: readonly PropertyKey[] = []): Problem[] {
  const out: Problem[] = [];
  for (const found of error.issues) {
    const issue = at.length ? { ...found, path: [...at, ...found.path] } : found;
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: formatPath([...issue.path, key]), message: "unknown field" });
      continue;
    }
    const path = formatPath(issue.path);
    if (issue.code === "invalid_type") {
      const actual = valueAt(input, issue.path);
      const message =
        actual === undefined && issue.path.length > 0
          ? `required field is missing (expected ${issue.expected})`
          : `must be ${issue.expected === "object" || issue.expected === "record" ? "a mapping" : issue.expected === "array" ? "a list" : `a ${issue.expected}`}, got ${describe(actual)}`;
      out.push({ path, message });
      continue;
    }
    if (issue.code === "invalid_union") {
      out.push({ path, message: `has the wrong type (got ${describe(valueAt(input, issue.path))})` });
      continue;
    }
    if ((issue.code === "too_small" || issue.code === "too_big") && issue.origin === "number" && issue.message.startsWith("Too ")) {
      const bound = issue.code === "too_small" ? `${issue.inclusive ? ">=" : ">"}${issue.minimum}` : `${issue.inclusive ? "<=" : "<"}${issue.maximum}`;
      out.push({ path, message: `must be a number ${bound}, got ${JSON.stringify(valueAt(input, issue.path))}` });
      continue;
    }
    if (issue.code === "invalid_value" && issue.values.length > 1) {
      // zod's "Invalid option: expected one of …" does not say what was given
      const options = issue.values.map((v) => JSON.stringify(v)).join(", ");
      out.push({ path, message: `must be one of ${options}, got ${JSON.stringify(valueAt(input, issue.path)) ?? "nothing"}` });
      continue;
    }
    out.push({ path, message: issue.message });
  }
  return out;
}

/** One line per problem: `<field.path>: <message>` (or just the message for the whole file). */
export function formatProblem(p: Problem): string {
  return p.path ? `${p.path}: ${p.message}` : p.message;
}

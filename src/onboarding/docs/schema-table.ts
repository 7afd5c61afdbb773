import { z } from "zod";

type JS = Record<string, any>;
export type Row = { key: string; type: string; default: string; description: string };

export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "input"): JS {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JS;
}

/** A short type name for a JSON Schema node: `string`, `integer 0–20`, `"a" | "b"`, `list of string`, `map of …`. */
export function typeName(s: JS): string {
  const tags = (s.anyOf ?? s.oneOf)?.map((o: JS) => o.properties?.type?.const);
  if (tags?.length && tags.every((t: unknown) => typeof t === "string")) return `object with type ${tags.map((t: string) => JSON.stringify(t)).join(" | ")}`;
  if (s.anyOf) return s.anyOf.map(typeName).join(" | ");
  if (s.oneOf) return s.oneOf.map(typeName).join(" | ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.enum) return s.enum.map((v: unknown) => JSON.stringify(v)).join(" | ");
  if (s.type === "array") return `list of ${s.items ? typeName(s.items) : "any"}`;
  if (s.type === "object" && !s.properties) {
    const keys = s.propertyNames?.enum ? "role" : "name";
    return s.additionalProperties && typeof s.additionalProperties === "object" ? `map of ${keys} → ${typeName(s.additionalProperties)}` : "map";
  }
  if (s.type === "integer" || s.type === "number") {
    const max = s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER ? s.maximum : undefined;
    const range = max !== undefined ? ` ${s.minimum ?? ""}–${max}` : s.minimum !== undefined ? ` ≥ ${s.minimum}` : "";
    return `${s.type}${range}`;
  }
  if (Array.isArray(s.type)) return s.type.join(" | ");
  return s.type ?? "any";
}

/** Sections (objects with fields) show no default: their fields do. */
const fmtDefault = (s: JS): string =>
  s.default === undefined || (s.properties && typeof s.default === "object") ? "" : `\`${JSON.stringify(s.default)}\``;

/**
 * One row per key, depth first, dotted paths (`defaults.completion.skip_final_approval`).
 * A map of named objects (providers.<name>) contributes its value's fields as `<prefix>.<name>.<field>`.
 * `described` fills in descriptions the schema lacks, keyed by dotted path.
 */
export function fieldRows(s: JS, prefix = "", described: Record<string, string> = {}, required: string[] = []): Row[] {
  const rows: Row[] = [];
  const props: Record<string, JS> = s.properties ?? {};
  const req: string[] = s.required ?? required;
  for (const [key, child] of Object.entries(props)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const type = typeName(child) + (req.includes(key) && child.default === undefined ? " (required)" : "");
    rows.push({ key: path, type, default: fmtDefault(child), description: child.description ?? described[path] ?? "" });
    const inner = child.anyOf?.find((a: JS) => a.type === "object") ?? child;
    if (inner.properties) rows.push(...fieldRows(inner, path, described));
    const value = inner.type === "object" && !inner.properties ? inner.additionalProperties : undefined;
    if (value && typeof value === "object" && value.properties) {
      const name = inner.propertyNames?.enum ? "<role>" : "<name>";
      rows.push(...fieldRows(value, `${path}.${name}`, described));
    }
    if (inner.type === "array" && inner.items?.properties) rows.push(...fieldRows(inner.items, `${path}[]`, described));
  }
  return rows;
}

const cell = (t: string) => t.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function markdownTable(headers: string[], rows: string[][]): string {
  return [`| ${headers.join(" | ")} |`, `| ${headers.map(() => "---").join(" | ")} |`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)].join("\n");
}

export function rowsTable(rows: Row[], withDefault = true): string {
  return withDefault
    ? markdownTable(["key", "type", "default", "description"], rows.map((r) => [`\`${r.key}\``, r.type, r.default, r.description]))
    : markdownTable(["field", "type", "description"], rows.map((r) => [`\`${r.key}\``, r.type, r.description]));
}

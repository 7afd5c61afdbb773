/**
 * Does a value satisfy a JSON Schema of the run API? Only the keywords zod generates for it
 * (type, properties, required, additionalProperties, items, anyOf/oneOf, enum, const,
 * minimum/maximum); an unknown keyword is an error, never a pass. Returns the problems with
 * their paths; [] when it does.
 */
type Node = Record<string, unknown>;

export const IGNORED = new Set(["$schema", "$id", "title", "description", "x-run-api-version", "default", "format"]);
export const CHECKED = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "oneOf",
  "enum",
  "const",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "pattern",
  "propertyNames",
]);

/** Every keyword the checkers know: the published schemas may use no other. */
export const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([...IGNORED, ...CHECKED]);

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case "null":
      return v === null;
    case "array":
      return Array.isArray(v);
    case "object":
      return typeof v === "object" && v !== null && !Array.isArray(v);
    case "integer":
      return typeof v === "number" && Number.isInteger(v);
    case "number":
      return typeof v === "number";
    default:
      return typeof v === type;
  }
}

/** `laterValues`: a string outside an enum passes (a consumer of an older version meets the values added after it). */
export function validate(schema: Node, v: unknown, path = "$", o: { laterValues?: boolean } = {}): string[] {
  for (const k of Object.keys(schema)) if (!IGNORED.has(k) && !CHECKED.has(k)) throw new Error(`${path}: the validator does not know the keyword ${k}`);
  const union = (schema.anyOf ?? schema.oneOf) as Node[] | undefined;
  if (union) {
    const each = union.map((s) => validate(s, v, path, o));
    if (each.some((p) => p.length === 0)) return [];
    return [`${path}: matches none of its ${union.length} alternatives (${each.map((p) => p[0]).join("; ")})`];
  }
  if (schema.type !== undefined && !([] as string[]).concat(schema.type as string).some((t) => typeOk(t, v)))
    return [`${path}: expected ${String(schema.type)}, got ${JSON.stringify(v)?.slice(0, 60)}`];
  if ("const" in schema && v !== schema.const) return [`${path}: expected ${JSON.stringify(schema.const)}, got ${JSON.stringify(v)}`];
  if (schema.enum && !(schema.enum as unknown[]).includes(v) && !(o.laterValues && typeof v === "string"))
    return [`${path}: ${JSON.stringify(v)} is not one of ${JSON.stringify(schema.enum)}`];
  if (typeof v === "number") {
    if (typeof schema.minimum === "number" && v < schema.minimum) return [`${path}: below ${schema.minimum}`];
    if (typeof schema.maximum === "number" && v > schema.maximum) return [`${path}: above ${schema.maximum}`];
    if (typeof schema.exclusiveMinimum === "number" && v <= schema.exclusiveMinimum) return [`${path}: not above ${schema.exclusiveMinimum}`];
  }
  if (typeof v === "string" && typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(v)) return [`${path}: does not match ${schema.pattern}`];
  const out: string[] = [];
  if (Array.isArray(v) && schema.items) v.forEach((x, i) => out.push(...validate(schema.items as Node, x, `${path}[${i}]`, o)));
  if (typeOk("object", v)) {
    const obj = v as Record<string, unknown>;
    const props = (schema.properties ?? {}) as Record<string, Node>;
    for (const k of (schema.required ?? []) as string[]) if (!(k in obj)) out.push(`${path}.${k}: missing`);
    for (const [k, x] of Object.entries(obj)) {
      if (schema.propertyNames) out.push(...validate(schema.propertyNames as Node, k, `${path}{${k}}`, o));
      if (props[k]) out.push(...validate(props[k], x, `${path}.${k}`, o));
      else if (schema.additionalProperties === false) out.push(`${path}.${k}: not allowed`);
      else if (schema.additionalProperties && typeof schema.additionalProperties === "object")
        out.push(...validate(schema.additionalProperties as Node, x, `${path}.${k}`, o));
    }
  }
  return out;
}

/** The event kinds a published event schema lists: a consumer of that version skips the kinds added after it. */
export function eventKinds(schema: Node): Set<string> {
  const variants = (schema.oneOf ?? schema.anyOf ?? []) as Node[];
  return new Set(variants.map((v) => String(((v.properties as Record<string, Node>).kind as Node).const)));
}

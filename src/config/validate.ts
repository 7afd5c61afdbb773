import { z } from "zod";
import { suggestKey } from "./suggest.ts";
import { listExpected, mappingExpected } from "./shape-hint.ts";
import { ConfigInvalid } from "./errors.ts";
import { Config } from "../schema/config.ts";

/**
 * A deep-optional view of a schema: every object field optional, defaults dropped, records
 * and nullables kept. One config file is checked against this view on its own, so a typo is
 * reported against the file that has it; the merged result is then checked against Config.
 */
export function deepPartial(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault) return deepPartial(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodOptional) return deepPartial(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodNullable) return deepPartial(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodObject) {
    const shape: Record<string, z.ZodType> = {};
    for (const [k, v] of Object.entries(schema.shape)) shape[k] = deepPartial(v as z.ZodType).optional();
    return z.strictObject(shape);
  }
  if (schema instanceof z.ZodRecord) {
    const value = deepPartial(schema.valueType as z.ZodType);
    const key = schema.keyType as z.ZodEnum | z.ZodString;
    return (schema._zod.def as { partial?: boolean }).partial ? z.partialRecord(key as z.ZodEnum, value) : z.record(key, value);
  }
  return schema;
}

export const PartialConfig = deepPartial(Config);

export function describeValue(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "list";
  if (typeof v === "object") return "map";
  return typeof v;
}

function valueAt(data: unknown, path: PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const key of path) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

const dotted = (path: PropertyKey[]) => (path.length ? path.map(String).join(".") : "(top level)");

/** The schema of the value at `path` (record keys step into the record's values), or undefined. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let cur: z.ZodType | undefined = schema;
  for (const key of path) {
    cur = cur && unwrap(cur);
    if (cur instanceof z.ZodObject) cur = (cur.shape as Record<string, z.ZodType>)[String(key)];
    else if (cur instanceof z.ZodRecord) cur = cur.valueType as z.ZodType;
    else return undefined;
  }
  return cur && unwrap(cur);
}

function unwrap(s: z.ZodType): z.ZodType {
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) s = s.unwrap() as z.ZodType;
  return s;
}

/** The keys a config may have at `path`: an object's fields, or the role names of a roles map. */
export function knownKeys(path: readonly PropertyKey[], schema: z.ZodType = Config): string[] {
  const s = schemaAt(schema, path);
  if (s instanceof z.ZodObject) return Object.keys(s.shape);
  if (s instanceof z.ZodRecord && s.keyType instanceof z.ZodEnum) return (s.keyType.options as unknown[]).map(String);
  return [];
}

/** Keys of the Python agentmux's config (`*`: any provider or role name); `config migrate` converts them. */
const LEGACY_KEYS = [
  "defaults.session_name",
  "defaults.skip_final_approval",
  "defaults.require_final_approval",
  "defaults.tier",
  "defaults.profile",
  "defaults.compression",
  "defaults.completion.require_final_approval",
  "providers.*.trust_snippet",
  "providers.*.trust_key",
  "providers.*.batch_command",
  "providers.*.batch_subcommand",
  "providers.*.role_args.reviewer",
  "roles.*.tier",
  "roles.*.profile",
  "roles.reviewer",
  "launchers",
].map((k) => k.split("."));

export function isLegacyKey(path: readonly PropertyKey[]): boolean {
  return LEGACY_KEYS.some((k) => k.length === path.length && k.every((part, i) => part === "*" || part === String(path[i])));
}

const suggestion = (key: string, path: readonly PropertyKey[], file: string) => {
  if (isLegacyKey([...path, key])) return ` — a key of the Python agentmux; convert the file with: agentmux config migrate ${file}`;
  const s = suggestKey(key, knownKeys(path));
  return s ? ` — did you mean ${s}?` : "";
};

/** One line per problem: `<key path>: <what is wrong>`. */
export function describeIssues(issues: z.core.$ZodIssue[], data: unknown, file = "<file>"): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = issue.path;
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys) lines.push(`${dotted([...path, key])}: unknown key${suggestion(key, path, file)}`);
        break;
      case "invalid_type": {
        const value = valueAt(data, path);
        const got = value === undefined ? "nothing" : describeValue(value);
        if ((issue.expected === "record" || issue.expected === "object") && value !== undefined)
          lines.push(mappingExpected(dotted(path), issue.expected as "record" | "object", got, value));
        else if (issue.expected === "array" && value !== undefined) lines.push(listExpected(dotted(path), got, value));
        else lines.push(`${dotted(path)}: expected ${issue.expected}, got ${got}`);
        break;
      }
      case "invalid_value": {
        const got = valueAt(data, path);
        const legacy =
          path.length === 1 && path[0] === "version" && got === 1
            ? ` — version 1 is the Python agentmux's format; convert the file with: agentmux config migrate ${file}`
            : "";
        lines.push(`${dotted(path)}: ${issue.message} (got ${JSON.stringify(got)})${legacy}`);
        break;
      }
      case "too_small":
      case "too_big": {
        const v = valueAt(data, path);
        if (issue.code === "too_small" && issue.origin === "string" && Number(issue.minimum) === 1) {
          lines.push(`${dotted(path)}: must not be empty`);
          break;
        }
        if (issue.origin !== "number" || typeof v !== "number") {
          lines.push(`${dotted(path)}: ${issue.message}`);
          break;
        }
        const bound = issue.code === "too_small" ? `>= ${issue.minimum}` : `<= ${issue.maximum}`;
        lines.push(`${dotted(path)}: must be ${bound}, got ${v}`);
        break;
      }
      case "invalid_key": {
        const key = String(path.at(-1) ?? "");
        const roles = knownKeys(path.slice(0, -1));
        const inner = (issue as { issues?: z.core.$ZodIssue[] }).issues ?? [];
        if (roles.length === 0 && inner.length > 0) {
          lines.push(`${dotted(path)}: bad name: ${inner.map((i) => i.message).join("; ")}`);
          break;
        }
        lines.push(
          `${dotted(path)}: unknown key (expected one of the role names${roles.length ? `: ${roles.join(", ")}` : ""})${suggestion(key, path.slice(0, -1), file)}`,
        );
        break;
      }
      default:
        lines.push(`${dotted(path)}: ${issue.message}`);
    }
  }
  return lines;
}

/** Validate one layer's data on its own; throws naming the file and every bad key. */
export function validateLayer(file: string, data: unknown): void {
  const r = PartialConfig.safeParse(data);
  if (!r.success) throw new ConfigInvalid({ issues: describeIssues(r.error.issues, data, file).map((problem) => ({ file, problem })) });
}

import { z } from "zod";
import { AgentmuxError } from "../errors.ts";
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

/** One line per problem: `<key path>: <what is wrong>`. */
export function describeIssues(issues: z.core.$ZodIssue[], data: unknown): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = issue.path;
    switch (issue.code) {
      case "unrecognized_keys":
        for (const key of issue.keys) lines.push(`${dotted([...path, key])}: unknown key`);
        break;
      case "invalid_type": {
        const value = valueAt(data, path);
        lines.push(`${dotted(path)}: expected ${issue.expected}, got ${value === undefined ? "nothing" : describeValue(value)}`);
        break;
      }
      case "invalid_value":
        lines.push(`${dotted(path)}: ${issue.message} (got ${JSON.stringify(valueAt(data, path))})`);
        break;
      case "too_small":
      case "too_big": {
        const v = valueAt(data, path);
        if (issue.origin !== "number" || typeof v !== "number") {
          lines.push(`${dotted(path)}: ${issue.message}`);
          break;
        }
        const bound = issue.code === "too_small" ? `>= ${issue.minimum}` : `<= ${issue.maximum}`;
        lines.push(`${dotted(path)}: must be ${bound}, got ${v}`);
        break;
      }
      case "invalid_key":
        lines.push(`${dotted(path)}: unknown key (expected one of the role names)`);
        break;
      default:
        lines.push(`${dotted(path)}: ${issue.message}`);
    }
  }
  return lines;
}

/** `file` prefixes every problem line; pass "" when the lines already name their files. */
export function configError(file: string, problems: string[], hint?: string): AgentmuxError {
  const message = problems.map((p) => (file ? `${file}: ${p}` : p)).join("\n");
  return new AgentmuxError("config", message, {
    where: "config",
    hint: hint ?? "fix the file, then check the result with: agentmux config",
    exitCode: 2,
  });
}

/** Validate one layer's data on its own; throws naming the file and every bad key. */
export function validateLayer(file: string, data: unknown): void {
  const r = PartialConfig.safeParse(data);
  if (!r.success) throw configError(file, describeIssues(r.error.issues, data));
}

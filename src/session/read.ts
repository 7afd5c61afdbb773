import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { SessionFileInvalid, SessionFileNotJson, SessionFileUnreadable } from "./errors.ts";
import { RuntimeState } from "../schema/runtime.ts";
import { State } from "../schema/state.ts";
import { F } from "./paths.ts";

/** Read `<dir>/<name>` as JSON and validate it; every failure names the file (and the field). */
export function readJsonFile<T>(dir: string, name: string, schema: z.ZodType<T>): T {
  const path = join(dir, name);
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === "ENOENT";
    throw new SessionFileUnreadable({ name, dir, path, reason: missing ? undefined : (e as Error).message });
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new SessionFileNotJson({ name, path, reason: (e as Error).message });
  }
  const r = schema.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = issue.path.length ? issue.path.join(".") : "(root)";
    throw new SessionFileInvalid({ name, path, field, issue: issue.message });
  }
  return r.data;
}

export const readState = (dir: string): State => readJsonFile(dir, F.state, State);

/** runtime_state.json is optional (finished or never-started sessions have none); a bad one is ignored. */
export function readRuntime(dir: string): RuntimeState | undefined {
  try {
    return readJsonFile(dir, F.runtime, RuntimeState);
  } catch {
    return undefined;
  }
}

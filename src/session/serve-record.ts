import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { sessionsRoot } from "../protocol/paths.ts";
import { SERVE_FILE } from "../protocol/files.ts";
import type { ServerFile } from "../schema/serve-file.ts";
import { readOptionalSessionFile } from "./file-io.ts";

export { ServerFile } from "../schema/serve-file.ts";

export const serverFilePath = (project: string) => join(sessionsRoot(project), ".serve.json");

/** A new random token for one server's lifetime (192 bits, URL-safe). */
export const newToken = () => randomBytes(24).toString("base64url");

export function writeServerFile(project: string, record: ServerFile): string {
  const path = serverFilePath(project);
  writeFileAtomic(path, JSON.stringify(record, null, 2) + "\n", { mode: 0o600 });
  return path;
}

/** The record of the server that runs for `project` now (null: none, or not readable). */
export function readServerFile(project: string): ServerFile | null {
  return readOptionalSessionFile(project, SERVE_FILE) ?? null;
}

/** Remove the record, only if it is this process's (a later server may have replaced it). */
export function removeServerFile(project: string, pid = process.pid): void {
  if (readServerFile(project)?.pid === pid) rmSync(serverFilePath(project), { force: true });
}

/** The page of run `id` on the server that runs for `project` now (no token: a browser that opened the server's link before has its cookie), null when none runs. */
export function runPageUrl(project: string, id: string): string | null {
  const r = readServerFile(project);
  return r ? `${r.url}#/run/${r.index}/${encodeURIComponent(id)}` : null;
}

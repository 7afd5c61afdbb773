import { randomBytes } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../effects/fs/atomic.ts";
import { sessionsRoot } from "../protocol/paths.ts";

/**
 * `<project>/.agentmux/.sessions/.serve.json` (0600, beside the sessions it shows, so git already
 * ignores it): where a running `agentmux serve` answers and its token. The notifier reads the
 * address from it to link a notification to the page; the user reads the token from it when the
 * printed link is gone. Removed when the server stops.
 */
export const ServerFile = z.strictObject({
  url: z.string(),
  /** this project's index in the server's list: its runs' pages are `<url>#/run/<index>/<id>` */
  index: z.number().int().min(0),
  token: z.string(),
  pid: z.number().int(),
  answer: z.boolean(),
  started_at: z.string(),
});
export type ServerFile = z.infer<typeof ServerFile>;

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
  try {
    const r = ServerFile.safeParse(JSON.parse(readFileSync(serverFilePath(project), "utf8")));
    return r.success ? r.data : null;
  } catch {
    return null;
  }
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

import { randomBytes } from "node:crypto";
import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { SealKeyInvalid } from "../session/errors.ts";
import { privateSealKeyFile } from "../session/private-dir.ts";
import { F } from "../protocol/paths.ts";

/**
 * Tool-event lines are sealed: the MCP endpoint (inside the orchestrator) ends each line it
 * appends with `"seal":"<hex>"`, an HMAC-SHA256 over the line's bytes before the seal, keyed
 * by the run's secret. A line written by anything else (an agent appending by hand, an old
 * `mcp-server`) has no valid seal and is rejected when applied. The key lives in the user's
 * private folder, outside the session folder where agents work (session/private-dir.ts
 * privateSealKeyFile, 0600), so a resumed orchestrator can check lines accepted before a crash;
 * it never appears in argv, env, prompts or logs.
 */
export type SealKey = Buffer;

export const SEAL_HEAD = ',"seal":"';
/** `,"seal":"` + 64 hex digits + `"}` */
export const SEAL_LEN = SEAL_HEAD.length + 64 + 2;

const KEY_HEX = /^[0-9a-f]{64}$/;

/** The key in `path`, or null when there is no file; a file that holds no key is named. */
function readKey(path: string): SealKey | null {
  let hex: string;
  try {
    hex = readFileSync(path, "utf8").trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
  if (!KEY_HEX.test(hex)) throw new SealKeyInvalid({ path });
  return Buffer.from(hex, "hex");
}

/** Write `key` to `path` (0600, in a 0700 folder) unless a file is there: then that file's key counts. */
function createKey(path: string, key: SealKey): SealKey {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  chmodSync(dirname(path), 0o700);
  try {
    const fd = openSync(path, "wx", 0o600);
    try {
      writeSync(fd, key.toString("hex") + "\n");
    } finally {
      closeSync(fd);
    }
    return key;
  } catch (e) {
    // another process created it first: use what is there
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    chmodSync(path, 0o600);
    return readKey(path) ?? key;
  }
}

/**
 * The session's seal key, created (0600, exclusively) on first use in the private folder. A
 * session whose key is still in its own `.runtime/tool_seal.key` (where earlier versions kept it,
 * readable by any agent) has it moved there on its first load, so a resume checks its earlier
 * lines with the same key.
 */
export function loadSealKey(sessionDir: string, home: string = homedir()): SealKey {
  const path = privateSealKeyFile(sessionDir, home);
  const legacy = join(sessionDir, F.legacySealKey);
  const key = readKey(path) ?? createKey(path, readKey(legacy) ?? randomBytes(32));
  rmSync(legacy, { force: true });
  return key;
}

// one keyed HMAC state per key, copied per line: ~5× cheaper than a new HMAC each time
const keyed = new WeakMap<SealKey, Bun.CryptoHasher>();
function mac(key: SealKey, body: string, close = ""): string {
  let base = keyed.get(key);
  if (!base) keyed.set(key, (base = new Bun.CryptoHasher("sha256", key)));
  const h = base.copy().update(body);
  return (close ? h.update(close) : h).digest("hex");
}

/** `{…}` → `{…,"seal":"<hex>"}`: the seal covers every byte of the object before it. */
export function sealLine(key: SealKey, objectJson: string): string {
  if (!objectJson.endsWith("}")) throw new Error("sealLine: not a JSON object");
  return `${objectJson.slice(0, -1)},"seal":"${mac(key, objectJson)}"}`;
}

/** Whether a raw line (without its newline) carries a valid seal under `key`. */
export function checkSeal(key: SealKey, line: string): boolean {
  const at = line.length - SEAL_LEN;
  if (at < 1 || !line.startsWith(SEAL_HEAD, at) || !line.endsWith('"}')) return false;
  // a plain comparison: the verifier runs on files, there is no one to time it against
  // the body and its closing brace are hashed in two parts: no copy of the line joined to "}"
  return mac(key, line.slice(0, at), "}") === line.slice(at + SEAL_HEAD.length, -2);
}

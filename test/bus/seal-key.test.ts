import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkSeal, loadSealKey, sealLine } from "../../src/bus/tool-seal.ts";
import { dropSealKey } from "../../src/session/private-dir.ts";
import { F } from "../../src/protocol/paths.ts";
import { privateSealKeyFile } from "../../src/session/private-dir.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

/**
 * #31.1, secrets not left where agents work: the seal key is in the user's private folder, never
 * in the session folder, kept for a resume, and a session that still has one in its `.runtime`
 * (earlier versions) has it moved there with the same bytes, so its sealed lines still check.
 */
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach(removeDir));
function world() {
  const root = makeTmpDir("amx-seal-");
  dirs.push(root);
  const home = join(root, "home");
  const session = join(root, "proj", ".agentmux", ".sessions", "20260101-000000-x");
  mkdirSync(session, { recursive: true });
  mkdirSync(home);
  return { home, session };
}
const mode = (p: string) => statSync(p).mode & 0o777;
const filesUnder = (dir: string) => readdirSync(dir, { recursive: true, encoding: "utf8" });

test("the key is created once in the private folder (0600 in a 0700 folder), reused, and nothing of it is in the session folder", () => {
  const { home, session } = world();
  const a = loadSealKey(session, home);
  const b = loadSealKey(session, home);
  expect(a.equals(b)).toBe(true);
  const file = privateSealKeyFile(session, home);
  expect(file.startsWith(join(home, ".cache", "agentmux", "keys") + "/")).toBe(true);
  expect(mode(file)).toBe(0o600);
  expect(mode(dirname(file))).toBe(0o700);
  expect(readFileSync(file, "utf8").trim()).toBe(a.toString("hex"));
  // nothing in the session folder holds it
  const hex = a.toString("hex");
  expect(filesUnder(session).filter((f) => statSync(join(session, f)).isFile() && readFileSync(join(session, f), "utf8").includes(hex))).toEqual([]);
  expect(existsSync(join(session, F.legacySealKey))).toBe(false);
});

test("two sessions of the same name in two projects get two keys", () => {
  const { home, session } = world();
  const other = join(dirname(dirname(dirname(dirname(session)))), "proj2", ".agentmux", ".sessions", "20260101-000000-x");
  mkdirSync(other, { recursive: true });
  expect(privateSealKeyFile(session, home)).not.toBe(privateSealKeyFile(other, home));
  expect(loadSealKey(session, home).equals(loadSealKey(other, home))).toBe(false);
});

test("a session's key left in .runtime/tool_seal.key by an earlier version moves to the private folder with the same bytes; its sealed lines still check", () => {
  const { home, session } = world();
  const legacy = join(session, F.legacySealKey);
  mkdirSync(dirname(legacy), { recursive: true });
  const hex = "ab".repeat(32);
  writeFileSync(legacy, hex + "\n", { mode: 0o600 });
  const line = sealLine(Buffer.from(hex, "hex"), JSON.stringify({ tool: "submit_plan", seq: 1 }));
  const key = loadSealKey(session, home);
  expect(key.toString("hex")).toBe(hex);
  expect(checkSeal(key, line)).toBe(true);
  expect(existsSync(legacy)).toBe(false);
  expect(readFileSync(privateSealKeyFile(session, home), "utf8").trim()).toBe(hex);
  expect(loadSealKey(session, home).toString("hex")).toBe(hex);
});

test("a key file that holds no key is named, not replaced", () => {
  const { home, session } = world();
  const file = privateSealKeyFile(session, home);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, "not a key\n");
  let err: unknown;
  try {
    loadSealKey(session, home);
  } catch (e) {
    err = e;
  }
  expect(err).toMatchObject({ message: "is not a seal key (64 hex digits)", where: file });
  expect(readFileSync(file, "utf8")).toBe("not a key\n");
});

test("dropSealKey removes the session's key and only it", () => {
  const { home, session } = world();
  const other = join(dirname(session), "20260101-000001-y");
  loadSealKey(session, home);
  loadSealKey(other, home);
  dropSealKey(session, home);
  expect(existsSync(privateSealKeyFile(session, home))).toBe(false);
  expect(existsSync(privateSealKeyFile(other, home))).toBe(true);
});

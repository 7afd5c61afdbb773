import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { code, sources, SRC } from "../architecture/imports.ts";
import { interpret, type InterpretContext } from "../../src/daemon/interpret.ts";
import { requestCancel, takeCancelRequest } from "../../src/session/cancel.ts";
import {
  inspectSessionFile,
  readSessionFile,
  SessionFileInvalid,
  SessionFileMissing,
  SessionFileRefused,
  takeSessionFile,
  writeSessionFile,
} from "../../src/session/file-io.ts";
import { doneFile, reviewFile, SESSION_FILES, sessionFileAt } from "../../src/protocol/files.ts";
import { F } from "../../src/protocol/paths.ts";
import { freshState } from "../orchestrator/fixtures.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

const root = makeTmpDir("amx-files-");
afterAll(() => removeDir(root));
let n = 0;
const dir = () => {
  const d = join(root, `s${n++}`);
  mkdirSync(join(d, ".runtime"), { recursive: true });
  return d;
};

describe("the registry of session files", () => {
  test("every protocol path (F) has an entry, and paths are unique", () => {
    for (const [key, path] of Object.entries(F)) expect(SESSION_FILES[key as keyof typeof F].path).toBe(path);
    const paths = Object.values(SESSION_FILES).map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(sessionFileAt("06_implementation/done_3.json")?.path).toBe(doneFile(3).path);
    expect(sessionFileAt("07_review/review_reviewer_logic.yaml")?.path).toBe(reviewFile("reviewer_logic").path);
    expect(sessionFileAt("state.json")).toBe(SESSION_FILES.state);
  });

  test("state.json round-trips through write and read, typed", () => {
    const d = dir();
    const state = { ...freshState(), outbox: [{ type: "log" as const, message: "hi" }] };
    writeSessionFile(d, SESSION_FILES.state, state);
    expect(readSessionFile(d, SESSION_FILES.state)).toEqual(state);
  });

  test("a write that breaks the schema is refused, naming the field, and nothing is written", () => {
    const d = dir();
    writeSessionFile(d, SESSION_FILES.state, freshState());
    const before = readFileSync(join(d, F.state), "utf8");
    const bad = { ...freshState(), phase: "celebrating" } as unknown as ReturnType<typeof freshState>;
    expect(() => writeSessionFile(d, SESSION_FILES.state, bad)).toThrow(SessionFileRefused);
    try {
      writeSessionFile(d, SESSION_FILES.state, bad);
    } catch (e) {
      expect((e as InstanceType<typeof SessionFileRefused>).data.problems[0]!.path).toBe("phase");
    }
    expect(readFileSync(join(d, F.state), "utf8")).toBe(before);
    expect(() => writeSessionFile(d, SESSION_FILES.approval, { action: "approve", exclude_files: [""] })).toThrow("exclude_files[0]");
    expect(existsSync(join(d, F.approval))).toBe(false);
  });

  test("reads name the file and the field: missing, bad syntax (line and column), bad field", () => {
    const d = dir();
    expect(() => readSessionFile(d, SESSION_FILES.state)).toThrow(SessionFileMissing);
    writeFileSync(join(d, F.state), '{\n  "phase": }');
    expect(() => readSessionFile(d, SESSION_FILES.state)).toThrow("JSON syntax error at line 2, column 12");
    writeFileSync(join(d, F.state), JSON.stringify({ ...freshState(), review_iteration: -1 }));
    let err: unknown;
    try {
      readSessionFile(d, SESSION_FILES.state);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SessionFileInvalid);
    expect((err as InstanceType<typeof SessionFileInvalid>).data).toMatchObject({ name: "state.json", problems: [{ path: "review_iteration" }] });
  });

  test("a FIFO or a device in a file's place is refused at once, never read", () => {
    const d = dir();
    expect(Bun.spawnSync(["mkfifo", join(d, F.state)]).exitCode).toBe(0);
    const r = inspectSessionFile(d, SESSION_FILES.state);
    expect(r).toMatchObject({ ok: false, missing: false, problems: [{ message: "is a FIFO, not a regular file; agentmux reads only regular files" }] });
    const dev = inspectSessionFile("/dev", { ...SESSION_FILES.state, path: "zero" });
    expect(dev.ok).toBe(false);
  });

  test("the cancel request: every writer's form is valid, taken exactly once; an unreadable one is still a cancel", () => {
    const d = dir();
    requestCancel(d, "cli", "SIGTERM");
    expect(takeCancelRequest(d)).toEqual({ request: { at: expect.any(String), by: "cli", signal: "SIGTERM" } });
    expect(takeCancelRequest(d)).toBeNull();
    for (const by of ["monitor", "home"] as const) {
      requestCancel(d, by);
      expect(takeCancelRequest(d)?.request?.by).toBe(by);
    }
    writeFileSync(join(d, SESSION_FILES.cancelRequest.path), '{"by":"tui"}');
    expect(takeCancelRequest(d)).toEqual({ request: null });
    writeFileSync(join(d, SESSION_FILES.cancelRequest.path), "{");
    expect(takeSessionFile(d, SESSION_FILES.cancelRequest)).toMatchObject({ ok: false });
  });

  test("the orchestrator's write_file of a registered structured file is checked against its schema", async () => {
    const d = dir();
    const ctx = { sessionDir: d } as InterpretContext;
    const write = (content: string) => interpret({ type: "write_file", path: F.executionPlan, content }, ctx);
    await expect(write("groups: nope\n")).rejects.toThrow(SessionFileRefused);
    expect(existsSync(join(d, F.executionPlan))).toBe(false);
    await interpret({ type: "write_file", path: F.reviewMd, content: "# Review\n" }, ctx);
    expect(readFileSync(join(d, F.reviewMd), "utf8")).toBe("# Review\n");
  });
});

test("no raw JSON reads of files in src/: every JSON file is read through a checked parser", () => {
  const raw = sources(SRC).filter((f) => /JSON\.parse\(\s*readFileSync/.test(code(readFileSync(f, "utf8"))));
  expect(raw.map((f) => relative(SRC, f))).toEqual([]);
});

test("a file whose schema is a list (preexisting_changes.json) round-trips", () => {
  const d = join(root, "list");
  mkdirSync(d, { recursive: true });
  const changes = [{ path: "notes.txt", oid: null, mode: 0 }];
  writeSessionFile(d, SESSION_FILES.preexisting, changes);
  expect(readSessionFile(d, SESSION_FILES.preexisting)).toEqual(changes);
});

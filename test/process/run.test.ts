import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { childEnv, runProcess } from "../../src/effects/process/run.ts";
import { spawnDetached } from "../../src/effects/process/detached.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { waitFor } from "../helpers/wait.ts";

const dirs: string[] = [];
afterAll(() => dirs.forEach(removeDir));

describe("runProcess: the one process runner", () => {
  test("argv is passed verbatim, stdout/stderr/exit code come back", async () => {
    const r = await runProcess(["sh", "-c", 'printf "%s|" "$@"; echo err >&2; exit 3', "sh", "a b", "$(x)", "'"]);
    expect(r).toEqual({ code: 3, stdout: "a b|$(x)|'|", stderr: "err\n" });
  });

  test("cwd and stdin", async () => {
    const dir = makeTmpDir();
    dirs.push(dir);
    const r = await runProcess(["sh", "-c", "pwd; cat"], { cwd: dir, stdin: "from stdin" });
    expect(r.stdout).toBe(`${dir}\nfrom stdin`);
  });

  test("env policy: layered over the inherited environment, undefined removes, cleanEnv starts empty", async () => {
    const inherited = Object.keys(process.env)[0]!;
    const env = childEnv({ env: { AMX_A: "1", [inherited]: undefined } });
    expect(env.AMX_A).toBe("1");
    expect(inherited in env).toBe(false);
    expect(childEnv({ cleanEnv: true, env: { ONLY: "x" } })).toEqual({ ONLY: "x" });
    const r = await runProcess(["/usr/bin/env"], { cleanEnv: true, env: { ONLY: "x", GONE: undefined } });
    expect(r.stdout).toBe("ONLY=x\n");
  });

  test("a missing program is exit 127 with its name, not an exception", async () => {
    const r = await runProcess(["/nonexistent/amx-no-such-program"]);
    expect(r.code).toBe(127);
    expect(r.stderr).toContain("/nonexistent/amx-no-such-program");
  });

  test("a timeout kills the program and says so", async () => {
    const t0 = performance.now();
    const r = await runProcess(["sleep", "30"], { timeoutMs: 200 });
    expect(r).toEqual({ code: 124, stdout: "", stderr: "", timedOut: true });
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});

describe("spawnDetached", () => {
  test("own session, output appended to a file, a result pipe on fd 3", async () => {
    const dir = makeTmpDir();
    dirs.push(dir);
    const out = join(dir, "out.log");
    const d = spawnDetached(["sh", "-c", 'echo "sid $(ps -o sid= -p $$)"; echo to-stderr >&2; echo "$AMX_X" >&3'], {
      cwd: dir,
      outputFile: out,
      resultPipe: true,
      env: { AMX_X: "result" },
    });
    expect((await d.result).trim()).toBe("result");
    expect((await d.exited).code).toBe(0);
    const text = String(await waitFor("output", () => readFileSync(out, "utf8").includes("to-stderr") && readFileSync(out, "utf8")));
    expect(Number(/sid\s+(\d+)/.exec(text)![1])).toBe(d.child.pid!);
  });
});

import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { BUN, makeFixture, readEvents, startEndpoint, write, type Endpoint, type Fixture } from "./harness.ts";

// each case starts bun processes: on a loaded 2-core machine that alone can take seconds
setDefaultTimeout(60_000);

/**
 * Identity that cannot be borrowed (#31.1): a token names an agent, but a request is that agent's
 * only when its connection comes from the agent's own process tree. Each attack of the issue is
 * made by a real second process holding the real token, against the real endpoint.
 */
const CALL = join(import.meta.dir, "fixtures", "call-tool.ts");
let fx: Fixture;
let ep: Endpoint;
let procs: Subprocess[] = [];
beforeEach(async () => {
  fx = await makeFixture();
  ep = startEndpoint(fx);
});
afterEach(() => {
  for (const p of procs) p.kill();
  procs = [];
  ep.stop();
  fx.cleanup();
});

/** A long-lived process standing for an agent's pane process (its tree is the agent). */
function paneProcess(): number {
  const p = Bun.spawn(["sleep", "120"], { stdout: "ignore", stderr: "ignore" });
  procs.push(p);
  return p.pid;
}

type Said = { ok?: boolean; text?: string; error?: string };
/** Run the borrowing script (under `sh` when `root` is to be bound to it: the script is then below the bound process). */
async function borrow(token: string, tool: string, args: object, o: { header?: number; bindTo?: string } = {}): Promise<Said> {
  const argv = [BUN, CALL, ep.endpoint.url, token, tool, JSON.stringify(args), ...(o.header ? [String(o.header)] : [])];
  const p = Bun.spawn(o.bindTo ? ["sh", "-c", '"$@"; exit $?', "sh", ...argv] : argv, { stdout: "pipe", stderr: "pipe" });
  if (o.bindTo) ep.tokens.bindProcess(o.bindTo, p.pid);
  const out = await new Response(p.stdout).text();
  await p.exited;
  const last = out.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(last) as Said;
  } catch {
    throw new Error(`the borrowing script printed no result: ${out} ${await new Response(p.stderr).text()}`);
  }
}

describe("a token used by a process outside its agent's tree is refused", () => {
  test("a forged 'pass': another process with the reviewer's token records nothing; the reviewer's own process can", async () => {
    fx.setState("reviewing");
    write(fx.sessionDir, "07_review/review_reviewer_logic.yaml", "verdict: pass\nsummary: all good\n");
    const token = ep.tokens.issue("reviewer_logic", "reviewer_logic", fx.projectDir);
    ep.tokens.bindProcess("reviewer_logic", paneProcess());

    const forged = await borrow(token, "submit_review", {});
    expect(forged.ok).toBeUndefined();
    expect(forged.error).toContain("outside reviewer_logic's process tree");
    expect(readEvents(fx.sessionDir)).toEqual([]);
    expect(ep.logs.join("\n")).toContain("refused a request with reviewer_logic's token: it comes from a process outside reviewer_logic's process tree");

    // the same script, started below the process the token is bound to: the reviewer itself
    const own = await borrow(token, "submit_review", {}, { bindTo: "reviewer_logic" });
    expect(own).toMatchObject({ ok: true });
    expect(own.text).toContain("Review recorded for reviewer_logic: verdict pass");
    expect(readEvents(fx.sessionDir).map((e) => [e.tool, e.agent])).toEqual([["submit_review", "reviewer_logic"]]);

    // what the endpoint remembers of the reviewer's connections lets no other process in after it
    const again = await borrow(token, "submit_review", {});
    expect(again.error).toContain("outside reviewer_logic's process tree");
    expect(readEvents(fx.sessionDir)).toHaveLength(1);
  });

  test("a token whose agent has no process yet is refused once the wait for its launch runs out", async () => {
    const token = ep.tokens.issue("architect", "architect", fx.projectDir);
    ep.tokens.link("architect")!.rootPid = undefined; // issued, pane not started
    const r = await borrow(token, "research_dispatch_code", { topic: "t", context: "c", questions: ["q"] });
    expect(r.error).toContain("no process was started for architect yet");
    expect(readEvents(fx.sessionDir)).toEqual([]);
  });
});

describe("the bridge-pid header is never taken on its word", () => {
  test("a header naming a process that exits does not make the orchestrator watch it (no restart of the agent)", async () => {
    const gone = Bun.spawn(["true"]);
    await gone.exited;
    const token = ep.tokens.issue("architect", "architect", fx.projectDir);
    // from inside the agent's own tree (the test process): accepted as the agent, the header ignored
    const r = await borrow(token, "research_dispatch_code", { topic: "t", context: "c", questions: ["q"] }, { header: gone.pid });
    expect(r.ok).toBe(true);
    expect(ep.tokens.link("architect")?.bridgePid).toBeUndefined();
    // from another agent's process: refused before the header is looked at
    ep.tokens.bindProcess("architect", paneProcess());
    const foreign = await borrow(token, "research_dispatch_code", { topic: "t2", context: "c", questions: ["q"] }, { header: gone.pid });
    expect(foreign.error).toContain("outside architect's process tree");
    expect(ep.tokens.link("architect")?.bridgePid).toBeUndefined();
  });
});

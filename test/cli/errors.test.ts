import { describe, expect, test } from "bun:test";
import { AgentmuxError, defineError, formatError } from "../../src/errors.ts";

const NothingHere = defineError("NothingHere", "git", (d: { root: string; count: number }) => ({
  message: `nothing to do (${d.count})`,
  where: d.root,
  hint: "change something first",
}));

describe("named errors", () => {
  test("carry their data, name, category and exit code", () => {
    const e = new NothingHere({ root: "/repo", count: 2 });
    expect(e).toBeInstanceOf(AgentmuxError);
    expect(e).toBeInstanceOf(NothingHere);
    expect(e.name).toBe("NothingHere");
    expect(NothingHere.errorName).toBe("NothingHere");
    expect(e.data).toEqual({ root: "/repo", count: 2 });
    expect(e.code).toBe("git");
    expect(e.exitCode).toBe(1);
  });

  test("render through the one formatter", () => {
    expect(formatError(new NothingHere({ root: "/repo", count: 2 }))).toBe("agentmux: /repo: nothing to do (2)\n  hint: change something first");
  });

  test("one kind is not another", () => {
    const Other = defineError("Other", "usage", (d: { x: string }) => ({ message: d.x }));
    const e = new Other({ x: "y" });
    expect(e).not.toBeInstanceOf(NothingHere);
    expect(e.exitCode).toBe(2);
  });
});

describe("the generic constructor is closed", () => {
  test("new AgentmuxError(code, message) does not type-check: every error is a named kind", () => {
    const generic = () =>
      // @ts-expect-error the constructor is protected (tsc -p . fails if it ever becomes public again)
      new AgentmuxError("usage", "free text");
    expect(typeof generic).toBe("function");
  });
});

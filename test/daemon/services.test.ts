import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Services } from "../../src/daemon/services.ts";
import { REPO_ROOT } from "../helpers/tmp.ts";

test("services start in the order they were added and stop in reverse, each stop on its own, once", () => {
  const seen: string[] = [];
  const logged: string[] = [];
  const services = new Services((m) => void logged.push(m));
  services.add({ name: "a", start: () => void seen.push("start a"), stop: () => void seen.push("stop a") });
  services.running("timer", () => {
    seen.push("stop timer");
    throw new Error("already cleared");
  });
  services.add({ name: "b", start: () => void seen.push("start b"), stop: () => void seen.push("stop b") });
  expect(services.names).toEqual(["a", "timer", "b"]);
  services.startAll();
  services.stopAll();
  services.stopAll();
  expect(seen).toEqual(["start a", "start b", "stop b", "stop timer", "stop a"]);
  expect(logged).toEqual(["stopping timer: already cleared"]);
});

test("the orchestrator starts and stops its watchers through its one list of services", () => {
  const main = readFileSync(join(REPO_ROOT, "src", "daemon", "main.ts"), "utf8");
  const finallyBlock = main.slice(main.indexOf("} finally {"), main.indexOf("}", main.indexOf("} finally {") + 12) + 1);
  expect(finallyBlock.replace(/\s+/g, " ")).toBe("} finally { services.stopAll(); }");
  expect(main).toContain("services.startAll();");
  expect(main).not.toMatch(/\b(usage|tail|calls|turns|files|created)\.(start|stop)\(\);\n/);
});

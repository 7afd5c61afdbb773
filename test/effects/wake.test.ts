import { describe, expect, test } from "bun:test";
import { EarliestWake } from "../../src/effects/wake.ts";
import { waitFor } from "../helpers/wait.ts";

describe("EarliestWake", () => {
  test("an earlier time moves the wake; a later one never postpones it", async () => {
    const fired: number[] = [];
    const w = new EarliestWake(() => fired.push(performance.now()));
    w.at(performance.now() + 60_000);
    w.at(performance.now() + 5);
    await waitFor("the earlier wake", () => fired.length === 1);
    w.at(performance.now() + 5);
    w.at(performance.now() + 60_000);
    await waitFor("the wake not postponed", () => fired.length === 2);
    w.cancel();
  });

  test("cancel drops the wake that is due; a new one fires on its own time", async () => {
    const fired: number[] = [];
    const w = new EarliestWake(() => fired.push(Date.now()), Date.now);
    const t0 = Date.now();
    w.at(t0 + 5);
    w.cancel();
    w.at(t0 + 40);
    await waitFor("the new wake", () => fired.length === 1);
    expect(fired[0]! - t0).toBeGreaterThanOrEqual(39);
  });
});

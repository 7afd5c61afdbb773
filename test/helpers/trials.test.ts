import { expect, test } from "bun:test";
import { timeoutFor, trialCount } from "./trials.ts";

test("the trial count is the test's own unless AGENTMUX_TEST_TRIALS says otherwise; a bad value is named", () => {
  expect(trialCount(3, {})).toBe(3);
  expect(trialCount(3, { AGENTMUX_TEST_TRIALS: "" })).toBe(3);
  expect(trialCount(3, { AGENTMUX_TEST_TRIALS: "20" })).toBe(20);
  for (const bad of ["0", "-2", "2.5", "many"])
    expect(() => trialCount(3, { AGENTMUX_TEST_TRIALS: bad })).toThrow(`AGENTMUX_TEST_TRIALS="${bad}": not a whole number`);
  expect(timeoutFor(3, 100_000, 600_000)).toBe(600_000);
  expect(timeoutFor(20, 100_000, 600_000)).toBe(2_000_000);
});

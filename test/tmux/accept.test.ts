import { expect, test } from "bun:test";
import { acceptedAfterSubmit, compileGate, type Snapshot } from "../../src/effects/tmux/screen.ts";

const GATE = compileGate({ pattern: "\\[sim\\] ready", busy_pattern: "\\[sim\\] working", settle_ms: 100, timeout_ms: 30000 });
const TEXT = "Read and follow the instructions in /tmp/p/.agentmux/.sessions/20261123-110626-greeting-module/02_architecting/architect_prompt.md";
const snap = (screen: string[]): Snapshot => ({ dead: false, exitStatus: "", inMode: false, title: "", screen: screen.join("\n") });

test("an agent that took the prompt and went idle within one poll (its transcript clips the line): accepted (#17.12)", () => {
  const before = snap(["sim agent · architect", "", "› ", "[sim] ready"]);
  const pasted = snap(["sim agent · architect", "", `› ${TEXT}`, "[sim] ready"]);
  const now = snap(["sim agent · architect", `› ${TEXT.slice(0, 60)}`, "Should the greeting also support other languages?", "› ", "[sim] ready"]);
  expect(acceptedAfterSubmit(GATE, before, pasted, now, TEXT)).toBe(true);
});

test("the text still in the input box after Enter: not accepted", () => {
  const before = snap(["sim agent · architect", "", "› ", "[sim] ready"]);
  const pasted = snap(["sim agent · architect", "", `› ${TEXT}`, "[sim] ready"]);
  expect(acceptedAfterSubmit(GATE, before, pasted, pasted, TEXT)).toBe(false);
});

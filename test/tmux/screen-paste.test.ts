import { expect, test } from "bun:test";
import { pasteComplete, pasteVisible } from "../../src/effects/tmux/screen.ts";

const prompt = (n: number) => `Read and follow the instructions in /s/06_implementation/coder_prompt_${n}.md`;

test("a paste is visible even when an older prompt with the same start scrolls off as it lands", () => {
  const before = [`› ${prompt(1)}`, "done", `› ${prompt(2)}`, "done", "›"].join("\n");
  // the screen scrolled: the first line left, the new paste landed in the input box
  const now = ["done", `› ${prompt(2)}`, "done", `› ${prompt(3)}`].join("\n");
  expect(pasteVisible(before, now, prompt(3))).toBe(true);
});

test("nothing new on screen is not a paste; a paste placeholder is", () => {
  const screen = `› ${prompt(1)}\n›`;
  expect(pasteVisible(screen, screen, prompt(2))).toBe(false);
  expect(pasteVisible(screen, `${screen} [Pasted text #2 +3 lines]`, prompt(2))).toBe(true);
});

test("a half-drawn paste (its start without its end) is visible but not complete", () => {
  const before = ["sim agent", "›", "[sim] ready"].join("\n");
  const text = prompt(4);
  const half = ["sim agent", `› ${text.slice(0, 30)}`, "[sim] ready"].join("\n");
  const whole = ["sim agent", `› ${text}`, "[sim] ready"].join("\n");
  expect(pasteVisible(before, half, text)).toBe(true);
  expect(pasteComplete(before, half, text)).toBe(false);
  expect(pasteComplete(before, whole, text)).toBe(true);
  expect(pasteComplete(before, `${before} [Pasted text #1 +3 lines]`, text)).toBe(true);
});

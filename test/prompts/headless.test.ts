import { afterAll, describe, expect, test } from "bun:test";
import { renderPrompt } from "../../src/prompts/render.ts";
import { removeDir } from "../helpers/tmp.ts";
import { CASES, makeSession, options } from "./fixture.ts";

const f = makeSession();
afterAll(() => removeDir(f.root));

/** Words that make a model wait for a person: in a headless run nobody comes. */
const WAITS_FOR_A_PERSON = /explicitly approve|explicit approval|until the user|with the user|(?<!not )ask the user|AskUserQuestion|human approval/i;

describe("headless runs render unattended prompts (#12.9)", () => {
  for (const c of CASES) {
    test(`${c.template}: nothing that waits for a person`, () => {
      const text = renderPrompt(options(f, c, { headless: true }));
      expect(text.match(WAITS_FOR_A_PERSON)?.[0] ?? null).toBeNull();
    });
  }

  test("the architect, planner and product manager are told to decide and record assumptions, and not to ask", () => {
    for (const template of ["architect", "planner", "product-manager", "change"]) {
      const text = renderPrompt(
        options(
          f,
          CASES.find((c) => c.template === template)!,
          { headless: true },
        ),
      );
      expect(text).toContain("Do not ask questions");
      expect(text).toContain(`${f.sessionDir}/assumptions.md`);
    }
  });

  test("attended runs keep the approval loop and the ask tool", () => {
    const text = renderPrompt(
      options(
        f,
        CASES.find((c) => c.template === "architect")!,
      ),
    );
    expect(text).toContain("iterate with the user until they explicitly approve it");
    expect(text).toContain("`AskUserQuestion`");
    expect(renderPrompt(options(f, CASES[0]!))).toContain("human approval → commit");
  });

  test("the summary prompt gives the session folder's absolute path (#12.13)", () => {
    const text = renderPrompt(
      options(
        f,
        CASES.find((c) => c.template === "summary")!,
      ),
    );
    expect(text).toContain(`Write \`${f.sessionDir}/08_completion/summary.md\``);
  });
});

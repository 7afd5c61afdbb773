import { expect, test } from "bun:test";
import { apply, ofType } from "./fixtures.ts";
import { reach } from "./reach.ts";

/** An answer to an agent's question from the web page (the answer request file → agent_answer). */
test("an answer to the question the agent waits on is typed into its pane; an older question's, a dialog's or a working agent's is not", () => {
  const { state, ev } = reach("architecting");
  const asking = apply(state, ev.turnEnded("architect", "English only, or other languages too?")).state;
  const q = asking.agents!.architect!.question!;
  expect(asking.agents!.architect!.status).toBe("needs_input");

  const r = apply(asking, ev.answer("architect", q.at, "English only, please."));
  expect(ofType(r.effects, "notify_agent")).toEqual([{ type: "notify_agent", agent: "architect", text: "English only, please." }]);
  expect(r.state.agents!.architect).toMatchObject({ status: "needs_input", note: "answered from the web page" });
  // its screen shows it at work again: the question is over
  expect(apply(r.state, ev.active("architect")).state.agents!.architect).toMatchObject({ status: "working" });

  const ignoredOf = (s: typeof state, e: ReturnType<typeof ev.answer>) => {
    const x = apply(s, e);
    expect(ofType(x.effects, "notify_agent")).toEqual([]);
    expect(x.state.agents).toEqual(s.agents);
  };
  ignoredOf(asking, ev.answer("architect", "2020-01-01T00:00:00.000Z")); // an older question
  ignoredOf(state, ev.answer("architect", q.at)); // it does not wait
  ignoredOf(asking, ev.answer("planner", q.at)); // no such agent
  const dialog = apply(state, ev.dialog("architect", "permission")).state;
  ignoredOf(dialog, ev.answer("architect", dialog.agents!.architect!.question!.at)); // a dialog is answered in the pane
});

/**
 * A turn end that was seen before the agent's next prompt went out, but reaches the loop after
 * the step that sent that prompt (queued behind the tool call), belongs to the task before (#27):
 * the reviewer's review turn must not be charged to its summary ("ended its turn without
 * writing summary.md", the false reminder about 1 run in 4). The real loop on a scripted run.
 */
import { afterEach, expect, test } from "bun:test";
import { F } from "../../src/protocol/paths.ts";
import type { Item, LogEntry } from "./loop-harness.ts";
import { newSession, script, segment } from "./loop-harness.ts";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";

let root: string | null = null;
afterEach(() => {
  if (root) removeDir(root);
  root = null;
});

/** The scripted run with the reviewer's review turn ending (seen at `at`) right after its submit_review is applied. */
function withTurnEnd(): { items: Item[]; at: string } {
  const items = script();
  const review = items.findIndex((i) => "tool" in i && i.tool === "submit_review");
  const seen = (items[review] as { at: string }).at;
  const at = new Date(Date.parse(seen) + 1).toISOString();
  items.splice(review + 1, 0, { event: { type: "agent_turn_ended", at, agent: "reviewer_logic" } });
  return { items, at };
}

const reminders = (log: LogEntry[]) => log.filter((l) => l.data?.note === "reminder");

test("the review turn's end, seen before the summary prompt went out, is not charged to the summary: no reminder, the run ends", async () => {
  root = makeTmpDir("amx-stale-turn-");
  const sessionDir = newSession(root);
  const log: LogEntry[] = [];
  const { items, at } = withTurnEnd();
  // the summary prompt went out after the turn end was seen (as AgentRuntime.deliveredSince says)
  const r = await segment({ root, sessionDir, items, from: 0, log, promptedSince: (agent, when) => agent === "reviewer_logic" && when === at });
  expect(r.result?.code).toBe(0);
  expect(reminders(log)).toEqual([]);
  expect(log.some((l) => l.data?.stale_turn_end === true && l.agent === "reviewer_logic")).toBe(true);
}, 60_000);

test("without that knowledge the same turn end is charged to the summary: the false reminder this guards against", async () => {
  root = makeTmpDir("amx-stale-turn-");
  const sessionDir = newSession(root);
  const log: LogEntry[] = [];
  const { items } = withTurnEnd();
  await segment({ root, sessionDir, items, from: 0, log });
  expect(reminders(log).map((l) => [l.agent, l.data?.owed])).toEqual([["reviewer_logic", F.summary]]);
}, 60_000);

import { z } from "zod";

export const TopicStatus = z.enum(["dispatched", "done"]);
export type TopicStatus = z.infer<typeof TopicStatus>;

/**
 * state.json's `research_tasks` / `web_research_tasks`: topic → status, in the order topics were
 * dispatched. A change makes a new record; a run has tens of topics.
 */
export const TopicTasks = z.record(z.string(), TopicStatus);
export type TopicTasks = z.infer<typeof TopicTasks>;

/** The record with `topic` set to `status`: a new topic goes last, a known one keeps its place. */
export const withTopic = (tasks: TopicTasks | undefined, topic: string, status: TopicStatus): TopicTasks => ({ ...tasks, [topic]: status });

/** The record without `topic` (dispatched again later, it goes last). */
export function withoutTopic(tasks: TopicTasks | undefined, topic: string): TopicTasks {
  const { [topic]: _gone, ...rest } = tasks ?? {};
  return rest;
}

/**
 * The reminder an agent gets when its turn ended without the submit its prompt requires. It
 * names the exact tool (in the agent's CLI spelling) and the file, says what to do when
 * blocked, and, where nobody answers questions, tells it to decide.
 */
export type NudgeInput = {
  /** the CLI's name for the submit tool, or null when the file alone finishes the task */
  tool: string | null;
  /** absolute path of the file the submit vouches for (or that finishes the task) */
  file: string;
  /** absolute path of the session's assumptions file */
  assumptions: string;
  attempt: number;
  limit: number;
  /** the last refusal of the submit tool, if any */
  refusal?: string;
  /** nobody answers questions: decide and note the assumptions */
  decide: boolean;
};

export function nudgeText(n: NudgeInput): string {
  const parts: string[] = [];
  if (n.refusal) parts.push(`Your last call was refused: ${n.refusal.replace(/\s+/g, " ").trim()} Fix what it names.`);
  if (n.tool) {
    parts.push(`Your task is not complete until you call \`${n.tool}\`.`);
    parts.push(`If ${n.file} is ready, call \`${n.tool}\` now.`);
    parts.push(`If you are blocked, write what blocks you to ${n.assumptions}, finish what you can, and call \`${n.tool}\`.`);
  } else {
    parts.push(`Your task is not complete until ${n.file} exists: write it now, in one go (agentmux moves on when it appears).`);
    parts.push(`If you are blocked, write what blocks you to ${n.assumptions} and finish what you can.`);
  }
  if (n.decide) parts.push(`Nobody can answer questions here: decide yourself and note each assumption in ${n.assumptions}.`);
  parts.push(`(Reminder ${n.attempt} of ${n.limit}.)`);
  return parts.join(" ");
}

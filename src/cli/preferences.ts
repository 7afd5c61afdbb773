import { UsageError } from "./errors.ts";
import { inertLine } from "../schema/inert-text.ts";
import { decideProposals, readProposals, type Proposal } from "../session/preferences.ts";
import { findProjectDir } from "../session/project.ts";
import type { ParsedArgs } from "./args.ts";
import type { preferences } from "./specs/setup.ts";

/** One proposal; its fields are agent-written (or hand-edited): printed inert. */
const line = (p: Proposal) => inertLine(`  ${p.id}  ${p.target_role}: ${p.bullet}   (proposed by the ${p.proposed_by.role}, ${p.at.slice(0, 10)})`);

/** `agentmux preferences`: the user's decision on preferences agents proposed (#18.12). */
export async function run(a: ParsedArgs<typeof preferences>): Promise<number> {
  const projectDir = findProjectDir();
  const [action = "list", ...ids] = a.positionals;
  const list = readProposals(projectDir);
  if (action === "list") {
    if (ids.length) throw new UsageError({ command: "preferences", problem: `"list" takes no ids (got ${ids.join(" ")})` });
    if (a.flags.json) {
      process.stdout.write(JSON.stringify(list, null, 2) + "\n");
      return 0;
    }
    if (!list.length) {
      process.stdout.write("No proposed preferences.\n");
      return 0;
    }
    process.stdout.write(
      `${list.length} proposed preference${list.length === 1 ? "" : "s"} (nothing reaches a prompt until you approve it):\n${list.map(line).join("\n")}\n`,
    );
    process.stdout.write("Approve with: agentmux preferences approve <id>… (or --all); drop with: agentmux preferences reject <id>…\n");
    return 0;
  }
  if (!ids.length && !a.flags.all)
    throw new UsageError({ command: "preferences", problem: `name the proposals to ${action} (ids from \`agentmux preferences\`) or pass --all` });
  if (ids.length && a.flags.all) throw new UsageError({ command: "preferences", problem: "give ids or --all, not both" });
  const unknown = ids.filter((id) => !list.some((p) => p.id === id));
  if (unknown.length) {
    throw new UsageError({
      command: "preferences",
      problem: `no pending proposal ${unknown.map((u) => `"${u}"`).join(", ")}`,
      hint: "list them with: agentmux preferences",
    });
  }
  const { decided } = decideProposals(projectDir, ids, action === "approve");
  const verb = action === "approve" ? "approved (added to .agentmux/prompts/agents/<role>.md)" : "rejected";
  process.stdout.write(decided.length ? `${decided.length} ${verb}:\n${decided.map(line).join("\n")}\n` : "No proposed preferences.\n");
  return 0;
}

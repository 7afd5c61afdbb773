import { z } from "zod";

/**
 * `.runtime/panel_draft.json`: the approval panel's work in progress besides line comments — the
 * commit message as edited, the files left out of the commit, the change request being
 * written — kept when the panel is quit and shown again (or the run is canceled and resumed),
 * until a decision is written.
 */
export const PanelDraft = z.strictObject({
  commit_message: z.string().optional(),
  exclude_files: z.array(z.string().min(1)),
  change_request: z.string().optional(),
});
export type PanelDraft = z.infer<typeof PanelDraft>;

import { z } from "zod";

/**
 * `.runtime/panel_comments.json`: the comments the user wrote on diff lines in the completion
 * panel, kept while the panel is open or closed and reopened, until a decision is written
 * ("request changes" puts them into changes.md).
 */
export const PanelComments = z.array(
  z.object({
    file: z.string().min(1),
    line: z.number().int().min(1),
    body: z.string().trim().min(1),
  }),
);
export type PanelComments = z.infer<typeof PanelComments>;

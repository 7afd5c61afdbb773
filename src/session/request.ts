import { defineError } from "../errors.ts";

/**
 * Characters that show nothing: whitespace, separators, control and format characters
 * (zero-width space and joiners, BOM, word joiner, soft hyphen) and the blank look-alikes
 * (braille blank, Hangul fillers).
 */
const INVISIBLE = /[\p{White_Space}\p{Z}\p{Cc}\p{Cf}\u2800\u3164\uFFA0\u115F\u1160]/gu;

/** True when `text` has at least one character a reader can see. */
export const hasVisibleText = (text: string): boolean => text.replace(INVISIBLE, "").length > 0;

/** A request that is empty or made only of invisible characters (exit 2; nothing is created). */
export const EmptyRequest = defineError("EmptyRequest", "usage", (d: { where: string; length: number }) => ({
  message: d.length ? `the request has no visible characters (${d.length} blank or zero-width)` : "a request is required",
  where: d.where,
  hint: 'describe the change, e.g. agentmux "Add rate limiting to the API"',
}));

/** A request file (`agentmux run request.md`) that is not a regular file or too large (exit 2). */
export const RequestFileUnreadable = defineError("RequestFileUnreadable", "usage", (d: { file: string; reason: string }) => ({
  message: d.reason,
  where: d.file,
  hint: "give the request as text, or a regular Markdown file",
}));

import { inertLine } from "../schema/inert-text.ts";
import { escapeTags } from "../views/line.ts";
import { ellipsize } from "../views/width.ts";

/**
 * A bordered box's title, cut to fit inside its top border: blessed draws a longer one past the
 * box's corner, over what is below it. The text is shown as it is (no tags, no controls).
 */
export function boxTitle(text: string, boxWidth: number): string {
  return ` ${escapeTags(ellipsize(inertLine(text), Math.max(1, boxWidth - 6)))} `;
}

import html from "./index.html" with { type: "text" };
import css from "./style.css" with { type: "text" };
import { browserBundle } from "../../effects/process/browser-bundle.ts" with { type: "macro" };

/** The page: one HTML shell, one style sheet, one script, all in the binary. */
// bun-types call an .html import a bundle; imported as text it is the file's text
export const PAGE_HTML = html as unknown as string;
export const PAGE_CSS: string = css;
export const PAGE_JS: string = browserBundle("web/client/app.ts");

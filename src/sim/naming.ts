import type { SimSession } from "./context.ts";

const STOP = new Set(
  "a an the add adds adding implement implements create make makes support supports build new for to of with and or in on into from by that this it its please small simple basic feature function helper module".split(
    " ",
  ),
);
const GENERIC_HEADING = /^(requirements?|feature( request)?|(initial |user )?request|clarifications|overview|summary|acceptance criteria)$/i;

/** The request text: the first meaningful line of requirements.md (headings like "Requirements" skipped). */
export function requestLine(requirements: string): string {
  for (const raw of requirements.split("\n")) {
    const line = raw
      .replace(/^#+\s*/, "")
      .replace(/^[-*>]\s*/, "")
      .trim();
    if (!line || GENERIC_HEADING.test(line) || /^<!--/.test(line)) continue;
    return line;
  }
  return "";
}

/**
 * A deterministic module name derived from the request: the first word that is not filler.
 * "Add a greeting helper" → "greeting".
 */
export function moduleSlug(request: string): string {
  const words = request
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
  const word = words.find((w) => !STOP.has(w) && /^[a-z]/.test(w)) ?? "feature";
  return word.slice(0, 24);
}

export function sessionSlug(s: SimSession): string {
  const fromReq = requestLine(s.readOr("requirements.md", ""));
  if (fromReq) return moduleSlug(fromReq);
  const name = s.state().feature_name;
  return moduleSlug(typeof name === "string" ? name.replace(/-/g, " ") : "");
}

/** `greeting_format` → `greetingFormat`. */
export function camel(name: string): string {
  return name.replace(/[-_]+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

import type { CreatedFile } from "../session/data.ts";
import type { FileEntry } from "../schema/run-api/snapshot.ts";

/** Created files a person reads (the rest are prompts and internals). */
const SHOWN = [
  /^requirements\.md$/,
  /^03_research\/[^/]+\/(summary|detail)\.md$/,
  /^04_planning\/(plan\.yaml|tasks(_\d+)?\.md)$/,
  /^05_design\/design\.md$/,
  /^06_implementation\/done_\d+(\.json)?$/,
  /^07_review\/(review\.md|fix_request\.md)$/,
  /^08_completion\/(summary\.md|changes\.md|approval\.json)$/,
];

/** The files of created_files.log worth showing, with when each was created, oldest first. */
export function filesOf(created: CreatedFile[]): FileEntry[] {
  return created
    .filter((f) => SHOWN.some((re) => re.test(f.path)))
    .sort((a, b) => a.at - b.at)
    .map((f) => ({ path: f.path, at: new Date(f.at).toISOString() }));
}

import { existsSync } from "node:fs";
import { readRegularFile } from "../effects/fs/read-regular.ts";
import { basename, resolve } from "node:path";
import { isHeadless, startRun, type StartOptions } from "../launcher/start.ts";
import { followCiAfterRun } from "../launcher/ci-after.ts";
import { InvalidSessionName } from "../session/errors.ts";
import { EmptyRequest, hasVisibleText, RequestFileUnreadable } from "../session/request.ts";
import { sessionNameProblem } from "../session/slug.ts";
import type { ParsedArgs } from "./args.ts";
import type { run as spec } from "./specs/start.ts";

export async function run({ flags, positionals }: ParsedArgs<typeof spec>): Promise<number> {
  const name = flags.name;
  const nameProblem = name === undefined ? undefined : sessionNameProblem(name);
  if (nameProblem) throw new InvalidSessionName({ name: name!, problem: nameProblem }); // before any repository or CLI check
  const text = positionals.join(" ").trim();
  if (!hasVisibleText(text)) throw new EmptyRequest({ where: "run", length: [...text].length });
  let request = text;
  let slugSource: string | undefined;
  if (positionals.length === 1 && text.endsWith(".md") && existsSync(text)) {
    // a FIFO or a device named like a request would block or fill memory: regular files only
    const read = readRegularFile(text);
    if (!read.ok) throw new RequestFileUnreadable({ file: text, reason: read.message });
    request = read.text;
    slugSource = basename(text, ".md");
    if (!hasVisibleText(request)) throw new EmptyRequest({ where: text, length: [...request].length });
  }
  const options = runOptions(flags);
  return followCiAfterRun(await startRun({ ...options, request, slugSource }), options);
}

/** The start options the run flags (RUN_FLAGS) give; shared by `run` and `issue`. */
export function runOptions(flags: ParsedArgs<typeof spec>["flags"]): Omit<StartOptions, "request"> {
  return {
    cwd: process.cwd(),
    name: flags.name,
    productManager: flags["product-manager"],
    worktree: flags.worktree,
    keepSession: flags["keep-session"],
    configPath: flags.config ? resolve(flags.config) : undefined,
    headless: isHeadless(flags.ci),
    progress: flags.json ? "json" : "plain",
    serve: flags.serve,
    out: (l) => process.stdout.write(l + "\n"),
  };
}

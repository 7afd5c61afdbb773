#!/usr/bin/env bun
import { VERSION } from "./version.ts";
import { formatError, isAgentmuxError } from "./errors.ts";

const argv = process.argv.slice(2);
try {
  if (argv[0] === "--version" || argv[0] === "-V") process.stdout.write(`agentmux ${VERSION}\n`);
  else {
    // the command table (specs, zod schemas) loads only when a command line needs it
    const { dispatch } = await import("./cli/dispatch.ts");
    process.exitCode = await dispatch(argv, !!process.stdin.isTTY && !!process.stdout.isTTY);
  }
} catch (e) {
  if (isAgentmuxError(e)) {
    process.stderr.write(formatError(e) + "\n");
    process.exitCode = e.exitCode;
  } else {
    const err = e as Error;
    process.stderr.write(`agentmux: internal error: ${err?.stack ?? String(e)}\n`);
    process.exitCode = 1;
  }
}

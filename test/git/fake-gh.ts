import * as fs from "node:fs";
import { join } from "node:path";

/**
 * A fake `gh` on PATH that records its arguments and answers like the real one. Behaviour is
 * steered by env: FAKE_GH_AUTH_EXIT, FAKE_GH_PR_FAIL, FAKE_GH_ISSUE (file with issue JSON).
 */
export function installFakeGh(dir: string): { log: string; calls: () => string[][]; restore: () => void } {
  const bin = join(dir, "bin");
  const log = join(dir, "gh-calls.log");
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(
    join(bin, "gh"),
    `#!/bin/sh
for a in "$@"; do printf '%s\\037' "$a" >> "${log}"; done
printf '\\036' >> "${log}"
case "$1 $2" in
  "--version "*) echo "gh version 2.99.0 (fake)"; exit 0 ;;
  "auth status") exit "\${FAKE_GH_AUTH_EXIT:-0}" ;;
  "auth token") echo "fake-token"; exit 0 ;;
  "pr create")
    if [ -n "$FAKE_GH_PR_FAIL" ]; then echo "GraphQL: $FAKE_GH_PR_FAIL" >&2; exit 1; fi
    echo "Creating pull request for feature into main"; echo "https://github.com/acme/app/pull/7"; exit 0 ;;
  "issue view")
    if [ -z "$FAKE_GH_ISSUE" ]; then echo "could not find issue" >&2; exit 1; fi
    cat "$FAKE_GH_ISSUE"; exit 0 ;;
esac
echo "fake gh: unexpected $*" >&2; exit 2
`,
    { mode: 0o755 },
  );
  const saved = { PATH: process.env.PATH, AUTH: process.env.FAKE_GH_AUTH_EXIT, PR: process.env.FAKE_GH_PR_FAIL, ISSUE: process.env.FAKE_GH_ISSUE };
  process.env.PATH = `${bin}:${process.env.PATH}`;
  return {
    log,
    calls: () => {
      if (!fs.existsSync(log)) return [];
      return fs.readFileSync(log, "utf8").split("\x1e").filter(Boolean).map((c) => c.split("\x1f").slice(0, -1));
    },
    restore: () => {
      const put = (k: string, v: string | undefined) => (v === undefined ? delete process.env[k] : (process.env[k] = v));
      put("PATH", saved.PATH);
      put("FAKE_GH_AUTH_EXIT", saved.AUTH);
      put("FAKE_GH_PR_FAIL", saved.PR);
      put("FAKE_GH_ISSUE", saved.ISSUE);
    },
  };
}

import * as fs from "node:fs";
import { join } from "node:path";
import { runProcess, type Runner } from "../../src/effects/process/run.ts";

/**
 * A fake `gh` on PATH that records its arguments (and what it read on stdin) and answers like
 * the real one. Behaviour is steered by env: FAKE_GH_AUTH_EXIT, FAKE_GH_PR_FAIL, FAKE_GH_ISSUE
 * (file with `gh issue view` JSON), FAKE_GH_PR (file with a REST pull request), FAKE_GH_REVIEW_COMMENTS
 * (file with a REST list of review comments), FAKE_GH_API_FAIL (every `gh api` call fails),
 * FAKE_GH_PR_CHECKS_DIR (`gh pr checks` answers, one file per call) with FAKE_GH_PR_CHECKS_EXIT, and
 * FAKE_GH_RUN_LOGS (`gh run view --job <id> --log-failed` output, one <id>.log per job).
 *
 * `gh api` calls are kept one per file in <dir>/gh-api/ (method, endpoint, stdin), so tests can
 * check which comments were created and edited, with which bodies.
 */
export type FakeGh = {
  log: string;
  /** PATH with the fake first: pass it to children (never set process.env in new tests) */
  path: string;
  calls: () => string[][];
  api: () => { method: string; endpoint: string; input: string }[];
  /** the bodies of the `gh pr comment` calls, in order */
  prComments: () => string[];
  /** the body `gh pr create` read from stdin (--body-file -), or null */
  prBody: () => string | null;
  /** steering variables (FAKE_GH_*) for calls made through `run`; tests set them here */
  env: Record<string, string>;
  /** a process runner with the fake first on PATH and `env` set: pass it where code takes a Runner */
  run: Runner;
};

export function writeFakeGh(dir: string, basePath = process.env.PATH ?? ""): FakeGh {
  const bin = join(dir, "bin");
  const log = join(dir, "gh-calls.log");
  const apiDir = join(dir, "gh-api");
  const prBodyFile = join(dir, "gh-pr-body.txt");
  fs.mkdirSync(bin, { recursive: true });
  fs.mkdirSync(apiDir, { recursive: true });
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
    for a in "$@"; do [ "$a" = "--body-file" ] && cat > "${prBodyFile}"; done
    if [ -n "$FAKE_GH_PR_FAIL" ]; then echo "GraphQL: $FAKE_GH_PR_FAIL" >&2; exit 1; fi
    echo "Creating pull request for feature into main"; echo "https://github.com/acme/app/pull/7"; exit 0 ;;
  "pr comment")
    # the body (--body-file -) of each comment, one file per comment
    n=$(ls "${dir}/pr-comments" 2>/dev/null | wc -l); n=$((n + 1)); mkdir -p "${dir}/pr-comments"
    cat > "${dir}/pr-comments/$(printf '%04d' "$n").md"; echo "https://github.com/acme/app/pull/7#issuecomment-$n"; exit 0 ;;
  "pr checks")
    # FAKE_GH_PR_CHECKS_DIR/<n>.json answers the n-th call (the last one repeats); an empty file: no checks yet
    n=$(cat "${dir}/pr-checks.count" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "${dir}/pr-checks.count"
    f="$FAKE_GH_PR_CHECKS_DIR/$n.json"
    [ -f "$f" ] || f="$FAKE_GH_PR_CHECKS_DIR/$(ls "$FAKE_GH_PR_CHECKS_DIR" | sort -n | tail -1)"
    if [ ! -s "$f" ]; then echo "no checks reported on the 'feature' branch" >&2; exit 1; fi
    cat "$f"; exit "\${FAKE_GH_PR_CHECKS_EXIT:-0}" ;;
  "run view")
    # FAKE_GH_RUN_LOGS/<job id>.log is what --log-failed prints
    job=""; prev=""; for a in "$@"; do [ "$prev" = "--job" ] && job=$a; prev=$a; done
    if [ ! -f "$FAKE_GH_RUN_LOGS/$job.log" ]; then echo "failed to get run log: HTTP 404" >&2; exit 1; fi
    cat "$FAKE_GH_RUN_LOGS/$job.log"; exit 0 ;;
  "issue view")
    if [ -z "$FAKE_GH_ISSUE" ]; then echo "could not find issue" >&2; exit 1; fi
    cat "$FAKE_GH_ISSUE"; exit 0 ;;
esac
if [ "$1" = api ]; then
  shift
  method=GET; endpoint=""; input=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --method) method=$2; shift 2 ;;
      -H) shift 2 ;;
      --input) input=$2; shift 2 ;;
      *) endpoint=$1; shift ;;
    esac
  done
  n=$(ls "${apiDir}" | wc -l); n=$((n + 1)); n=$(printf '%04d' "$n")
  if [ "$input" = "-" ]; then cat > "${apiDir}/$n.in"; else : > "${apiDir}/$n.in"; fi
  printf '%s\\n%s\\n' "$method" "$endpoint" > "${apiDir}/$n.call"
  if [ -n "$FAKE_GH_API_FAIL" ]; then echo "gh: $FAKE_GH_API_FAIL (HTTP 403)" >&2; exit 1; fi
  id=$((5000 + $(printf '%s' "$n" | sed 's/^0*//')))
  case "$method $endpoint" in
    "POST repos/"*"/issues/"*"/comments") echo "{\\"id\\": $id, \\"html_url\\": \\"https://github.com/acme/app/issues/1#issuecomment-$id\\"}"; exit 0 ;;
    "PATCH repos/"*"/issues/comments/"*) echo "{\\"id\\": \${endpoint##*/}}"; exit 0 ;;
    "GET repos/"*"/pulls/"*"/reviews/"*"/comments"*) cat "$FAKE_GH_REVIEW_COMMENTS"; exit 0 ;;
    "POST repos/"*"/pulls/"*"/comments/"*"/replies") echo "{\\"id\\": $id}"; exit 0 ;;
    "GET repos/"*"/pulls/"*) cat "$FAKE_GH_PR"; exit 0 ;;
  esac
  echo "gh: Not Found (HTTP 404)" >&2; exit 1
fi
echo "fake gh: unexpected $*" >&2; exit 2
`,
    { mode: 0o755 },
  );
  const path = `${bin}:${basePath}`;
  const env: Record<string, string> = {};
  return {
    log,
    path,
    env,
    run: (argv, opts = {}) => runProcess(argv, { ...opts, env: { ...opts.env, PATH: path, ...env } }),
    calls: () => {
      if (!fs.existsSync(log)) return [];
      return fs
        .readFileSync(log, "utf8")
        .split("\x1e")
        .filter(Boolean)
        .map((c) => c.split("\x1f").slice(0, -1));
    },
    api: () =>
      fs
        .readdirSync(apiDir)
        .filter((f) => f.endsWith(".call"))
        .sort()
        .map((f) => {
          const [method, endpoint] = fs.readFileSync(join(apiDir, f), "utf8").split("\n");
          return { method: method!, endpoint: endpoint!, input: fs.readFileSync(join(apiDir, f.replace(/\.call$/, ".in")), "utf8") };
        }),
    prComments: () => {
      const d = join(dir, "pr-comments");
      return fs.existsSync(d)
        ? fs
            .readdirSync(d)
            .sort()
            .map((f) => fs.readFileSync(join(d, f), "utf8"))
        : [];
    },
    prBody: () => (fs.existsSync(prBodyFile) ? fs.readFileSync(prBodyFile, "utf8") : null),
  };
}

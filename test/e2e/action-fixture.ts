/**
 * A GitHub Actions job without GitHub: a checkout of a repository with a bare `origin`, an
 * event payload file, the job's environment (GITHUB_*, INPUT_*, RUNNER_TEMP, GITHUB_OUTPUT)
 * and a fake `gh` on PATH. Runs `agentmux github-action <step>` like action.yml does.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFakeGh, type FakeGh } from "../git/fake-gh.ts";
import { git, makeTmpDir, runBinary, type RunResult } from "./harness.ts";

export type Job = {
  root: string;
  seed: string;
  repo: string;
  origin: string;
  gh: FakeGh;
  outputs: () => Record<string, string>;
  outputLines: () => string[];
  /** the job's environment for an event (the payload is written to GITHUB_EVENT_PATH) */
  env: (event: string, payload: unknown, extra?: Record<string, string>) => Record<string, string>;
  run: (step: "check" | "run", event: string, payload: unknown, extra?: Record<string, string>) => Promise<RunResult>;
  sessionDirs: () => string[];
};

/**
 * A small project on main, pushed to a bare origin, with the .gitignore a real project has;
 * the job's checkout is a shallow clone without a git identity, as actions/checkout leaves it.
 * `seed` is a full clone with an identity, for tests that prepare branches on origin.
 */
export function makeJob(bin: string, socket: string): Job {
  const root = makeTmpDir("amx-action-");
  const seed = join(root, "seed");
  const repo = join(root, "repo");
  const origin = join(root, "origin.git");
  mkdirSync(join(seed, "src"), { recursive: true });
  writeFileSync(join(seed, "README.md"), "# app\n");
  writeFileSync(join(seed, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", type: "module" }) + "\n");
  writeFileSync(join(seed, "src", "index.js"), 'export const main = () => "app";\n');
  writeFileSync(join(seed, ".gitignore"), ".agentmux/.sessions/\n.agentmux/.last_completion.json\n");
  git(root, "init", "-q", "--bare", "-b", "main", origin);
  git(seed, "init", "-q", "-b", "main");
  git(seed, "config", "user.name", "Seed");
  git(seed, "config", "user.email", "seed@example.invalid");
  git(seed, "add", "-A");
  git(seed, "commit", "-q", "-m", "Initial commit");
  git(seed, "remote", "add", "origin", origin);
  git(seed, "push", "-q", "origin", "main");
  git(seed, "commit", "-q", "--allow-empty", "-m", "Second commit"); // so the checkout below is really shallow
  git(seed, "push", "-q", "origin", "main");
  git(root, "clone", "-q", "--depth", "1", `file://${origin}`, repo);
  const gh = writeFakeGh(root);
  const outputFile = join(root, "github-output");
  mkdirSync(join(root, "runner-temp"), { recursive: true });
  mkdirSync(join(root, "runner-home"), { recursive: true });
  const outputLines = () => (existsSync(outputFile) ? readFileSync(outputFile, "utf8").split("\n").filter(Boolean) : []);
  return {
    root,
    seed,
    repo,
    origin,
    gh,
    outputLines,
    outputs: () => Object.fromEntries(outputLines().map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)])),
    sessionDirs: () => {
      const dir = join(repo, ".agentmux", ".sessions");
      return existsSync(dir)
        ? Bun.spawnSync(["ls", dir])
            .stdout.toString()
            .split("\n")
            .filter(Boolean)
            .map((d) => join(dir, d))
        : [];
    },
    env: (event, payload, extra = {}) => {
      const eventPath = join(root, `event-${event}.json`);
      writeFileSync(eventPath, JSON.stringify(payload));
      return {
        PATH: gh.path,
        HOME: join(root, "runner-home"), // no ~/.gitconfig: a runner has no git identity
        XDG_CONFIG_HOME: join(root, "xdg"),
        GITHUB_ACTIONS: "true",
        GITHUB_EVENT_NAME: event,
        GITHUB_EVENT_PATH: eventPath,
        GITHUB_REPOSITORY: "acme/app",
        GITHUB_ACTOR: "maintainer",
        GITHUB_SERVER_URL: "https://github.com",
        GITHUB_RUN_ID: "4242",
        GITHUB_OUTPUT: outputFile,
        RUNNER_TEMP: join(root, "runner-temp"),
        INPUT_PROVIDER: "sim",
        ...extra,
      };
    },
    run(step, event, payload, extra = {}) {
      return runBinary(bin, ["github-action", step], { cwd: repo, socket, env: this.env(event, payload, extra), timeoutMs: 150_000 });
    },
  };
}

const user = (login: string, type = "User") => ({ login, type });

export const issue = (number: number, title: string, body = "") => ({
  number,
  title,
  body,
  user: user("reporter"),
  html_url: `https://github.com/acme/app/issues/${number}`,
});

/** `body`: the issue's body in the payload, as the person adding the label saw it */
export const labeled = (n: number, title: string, o: { label?: string; sender?: { login: string; type: string }; body?: string } = {}) => ({
  action: "labeled",
  issue: issue(n, title, o.body),
  label: { name: o.label ?? "agentmux" },
  sender: o.sender ?? user("maintainer"),
});

export const issueComment = (
  n: number,
  body: string,
  o: { association?: string; login?: string; type?: string; pr?: boolean; issue?: { title: string; body: string } } = {},
) => ({
  action: "created",
  issue: {
    ...issue(n, o.issue?.title ?? "An issue", o.issue?.body),
    ...(o.pr ? { pull_request: { url: `https://api.github.com/repos/acme/app/pulls/${n}` } } : {}),
  },
  comment: { id: 901, body, user: user(o.login ?? "maintainer", o.type), author_association: o.association ?? "MEMBER" },
  sender: user(o.login ?? "maintainer", o.type),
});

export const pullRequest = (n: number, branch: string, body: string) => ({
  number: n,
  title: "Add a farewell helper",
  body,
  html_url: `https://github.com/acme/app/pull/${n}`,
  state: "open",
  user: user("github-actions[bot]", "Bot"),
  head: { ref: branch, repo: { full_name: "acme/app" } },
  base: { ref: "main" },
});

export const reviewComment = (id: number, path: string, line: number, body: string, association = "MEMBER") => ({
  id,
  body,
  path,
  line,
  original_line: line,
  pull_request_review_id: 77,
  user: user("maintainer"),
  author_association: association,
});

/** The `gh issue view --json title,body,comments` answer the fake gh prints. */
export function issueFile(dir: string, title: string, body: string, comments: { login: string; association: string; body: string }[] = []): string {
  const path = join(dir, "issue.json");
  const json = comments.map((c, i) => ({
    author: { login: c.login },
    authorAssociation: c.association,
    createdAt: `2026-01-0${i + 1}T00:00:00Z`,
    body: c.body,
  }));
  writeFileSync(path, JSON.stringify({ title, body, comments: json }));
  return path;
}

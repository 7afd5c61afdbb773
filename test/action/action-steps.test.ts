import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { arch, platform } from "node:os";
import { join } from "node:path";
import { issueFile, labeled, makeJob } from "../e2e/action-fixture.ts";
import { BINARY, REPO_ROOT, killTmuxServer, makeTmpDir, privateSocket, removeDir } from "../helpers/tmp.ts";
import { runComposite } from "./composite.ts";

/**
 * action.yml's steps, run in order like the GitHub runner does: agentmux installed by
 * install.sh from release files (the compiled binary and its SHA256SUMS, served from a folder
 * the way test/install serves them), the decision, the run, the artifact upload and the
 * job's exit code.
 */
const socket = privateSocket();
const dirs: string[] = [];
let release: string;

beforeAll(() => {
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`bun build.ts\` (npm test does it)`);
  release = makeTmpDir("amx-release-");
  dirs.push(release);
  const asset = `agentmux-${platform()}-${arch()}`;
  copyFileSync(BINARY, join(release, asset));
  const sums = Bun.spawnSync(["sha256sum", asset], { cwd: release, stdout: "pipe" });
  writeFileSync(join(release, "SHA256SUMS"), sums.stdout);
});
afterAll(() => {
  killTmuxServer(socket);
  for (const d of dirs) removeDir(d);
});

async function runAction(o: {
  payload: unknown;
  event?: string;
  inputs?: Record<string, string>;
  env?: Record<string, string>;
  release?: string;
  files?: Record<string, string>;
}) {
  const j = makeJob("(installed by the action)", socket);
  dirs.push(j.root);
  for (const [path, text] of Object.entries(o.files ?? {})) writeFileSync(join(j.repo, path), text);
  const env = {
    ...j.env(o.event ?? "issues", o.payload, { FAKE_GH_ISSUE: issueFile(j.root, "Add a farewell helper", "We need it."), ...o.env }),
    AGENTMUX_RELEASE_URL: `file://${o.release ?? release}`,
    CI: "true",
    LANG: "C.UTF-8", // as on GitHub's runners
    AGENTMUX_TMUX_SOCKET: socket,
    NO_COLOR: "1",
  };
  // the inputs go through action.yml's own expressions, not through the job's environment
  for (const k of Object.keys(env)) if (k.startsWith("INPUT_")) delete env[k as keyof typeof env];
  const r = await runComposite({
    actionPath: REPO_ROOT,
    cwd: j.repo,
    workDir: join(j.root, "runner-steps"),
    inputs: { provider: "sim", ...o.inputs },
    env,
    github: { token: "ghs_fake_token_for_tests", action_repository: "acme/agentmux" },
  });
  return { j, r };
}

describe("action.yml, step by step", () => {
  test("a labelled issue: agentmux installed with its checksum, run, the session uploaded, the job green", async () => {
    const { j, r } = await runAction({ payload: labeled(42, "Add a farewell helper") });
    const install = r.byName("Install agentmux");
    if (r.failed) console.error(r.steps.map((s) => `${s.name}: ${s.code}\n${s.stdout}\n${s.stderr}`).join("\n"));
    expect(install.stdout).toContain(`verified SHA-256 of agentmux-${platform()}-${arch()}`);
    expect(install.stdout).toContain(`installed version: agentmux`);
    expect(r.byName("Decide from the event").stdout).toContain("agentmux: running for issue #42 (started by @maintainer)");
    expect(r.byName("Install tmux").stdout).toContain("agentmux: tmux");
    expect(r.byName("Install the agent CLIs").ran).toBe(false); // the sim provider needs no package
    const run = r.byName("Run agentmux");
    expect(run.stdout).toContain('"kind":"result","outcome":"success"');
    const upload = r.byName("Upload the session folder");
    expect(upload.uses).toBe("actions/upload-artifact@v4");
    expect(upload.with).toEqual({ name: "agentmux-issue-42", path: r.outputs.session_dir!, "include-hidden-files": "true", "if-no-files-found": "ignore" });
    expect(existsSync(join(upload.with!.path!, "state.json"))).toBe(true);
    expect(r.byName("Fail the job with agentmux's exit code").ran).toBe(false);
    expect(r.failed).toBe(false);
    expect(r.outputs).toMatchObject({ run: "true", exit_code: "0", outcome: "success", pr_url: "https://github.com/acme/app/pull/7" });
    // the token (the github_token input's default) is masked before anything else is printed
    expect(run.stdout.split("\n")[0]).toBe("::add-mask::ghs_fake_token_for_tests");
    expect(j.gh.api().length).toBeGreaterThan(1);
  }, 240_000);

  test("a failing run: the session is still uploaded and the job fails with agentmux's exit code", async () => {
    // the config input: a file in the repository, on top of the other inputs' layer
    const { r } = await runAction({
      payload: labeled(43, "Add a farewell helper"),
      files: { "agentmux-ci.yaml": "sim:\n  scenario: [crash=architect]\n" },
      inputs: { config: "agentmux-ci.yaml" },
    });
    const status = r.outputs.exit_code!;
    expect(status).not.toBe("0");
    expect(r.outputs.outcome).not.toBe("success");
    expect(r.byName("Upload the session folder").ran).toBe(true);
    const fail = r.byName("Fail the job with agentmux's exit code");
    expect(fail.ran).toBe(true);
    expect(fail.code).toBe(Number(status));
    expect(r.failed).toBe(true);
  }, 240_000);

  test("an ignored event: nothing installed beyond agentmux, nothing run, the job green", async () => {
    const { r } = await runAction({ payload: labeled(44, "x", { label: "bug" }) });
    expect(r.byName("Decide from the event").stdout).toContain('agentmux: not running: the label "bug" is not "agentmux"');
    for (const name of ["Install tmux", "Install the agent CLIs", "Run agentmux", "Upload the session folder", "Fail the job with agentmux's exit code"])
      expect(r.byName(name).ran).toBe(false);
    expect(r.failed).toBe(false);
    expect(r.outputs.run).toBe("false");
  }, 60_000);

  test("a release file that does not match its checksum: nothing installed, the job fails at once", async () => {
    const bad = makeTmpDir("amx-release-bad-");
    dirs.push(bad);
    const asset = `agentmux-${platform()}-${arch()}`;
    mkdirSync(bad, { recursive: true });
    writeFileSync(join(bad, asset), "#!/bin/sh\necho tampered\n", { mode: 0o755 });
    copyFileSync(join(release, "SHA256SUMS"), join(bad, "SHA256SUMS"));
    const { r } = await runAction({ payload: labeled(45, "x"), release: bad });
    const install = r.byName("Install agentmux");
    expect(install.code).not.toBe(0);
    expect(install.stderr).toContain(`checksum mismatch for ${asset}`);
    expect(r.steps.filter((s) => s.ran).map((s) => s.name)).toEqual(["Install agentmux"]);
  }, 60_000);
});

import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { fakeBinary, INSTALL_SH, runInstall, toolDir, writeRelease, type ToolOptions } from "./fixtures.ts";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) removeDir(d);
  dirs = [];
});

function setup(opts: ToolOptions = {}) {
  const root = makeTmpDir("amx-install-");
  dirs.push(root);
  const release = writeRelease(join(root, "release"), "1.0.0");
  const installDir = join(root, "bin");
  const bin = toolDir(join(root, "tools"), { uname: { s: "Linux", m: "x86_64" }, ...opts });
  const env = { HOME: root, PATH: bin, AGENTMUX_INSTALL_DIR: installDir, TMPDIR: root };
  return { root, release, installDir, bin, env, target: join(installDir, "agentmux") };
}

describe("install.sh download and offline modes", () => {
  test("downloads the asset and SHA256SUMS from AGENTMUX_RELEASE_URL with curl", () => {
    const s = setup();
    const r = runInstall([], { ...s.env, AGENTMUX_RELEASE_URL: `file://${s.release}/` });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`downloading agentmux-linux-x64 from file://${s.release}`);
    expect(r.out).toContain("verified SHA-256 of agentmux-linux-x64");
    expect(readFileSync(s.target, "utf8")).toBe(fakeBinary("1.0.0", "linux-x64"));
  });

  test("a download failure names the URL and installs nothing", () => {
    const s = setup();
    const r = runInstall([], { ...s.env, AGENTMUX_RELEASE_URL: `file://${s.root}/no-such-release` });
    expect(r.code).not.toBe(0);
    expect(r.err).toContain(`download failed: file://${s.root}/no-such-release/SHA256SUMS`);
    expect(existsSync(s.target)).toBe(false);
  });

  test("without curl or wget it says what to install", () => {
    const s = setup({ without: ["curl"] });
    const r = runInstall([], { ...s.env, AGENTMUX_RELEASE_URL: `file://${s.release}` });
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("neither curl nor wget is installed");
    expect(r.err).toContain("--from DIR");
  });

  test("--file installs one binary, verified when SHA256SUMS next to it lists it", () => {
    const s = setup();
    const verified = runInstall(["--file", join(s.release, "agentmux-linux-arm64")], s.env);
    expect(verified.code).toBe(0);
    expect(verified.out).toContain("verified SHA-256 of agentmux-linux-arm64");

    const loose = join(s.root, "loose");
    mkdirSync(loose);
    writeFileSync(join(loose, "agentmux"), fakeBinary("3.0.0", "loose"), { mode: 0o644 });
    const unverified = runInstall(["--file", join(loose, "agentmux")], s.env);
    expect(unverified.code).toBe(0);
    expect(unverified.err).toContain("installing without verification");
    expect(unverified.out).toContain("replaced agentmux 1.0.0 with agentmux 3.0.0");
    expect(statSync(s.target).mode & 0o777).toBe(0o755);
  });

  test("--file refuses a binary whose SHA256SUMS entry does not match", () => {
    const s = setup();
    writeFileSync(join(s.release, "agentmux-darwin-x64"), "#!/bin/sh\necho tampered\n");
    const r = runInstall(["--file", join(s.release, "agentmux-darwin-x64")], s.env);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("checksum mismatch for agentmux-darwin-x64");
    expect(existsSync(s.target)).toBe(false);
  });

  test("--source builds with npm install && npm run build and installs dist/agentmux", () => {
    const log = join(makeTmpDir("amx-npm-"), "npm.log");
    dirs.push(join(log, ".."));
    // npm is not available offline with real packages here: a stand-in records its calls and builds.
    const s = setup({
      extra: {
        npm: `echo "npm $*" >> "${log}"\nif [ "$1 $2" = "run build" ]; then mkdir -p dist && printf '#!/bin/sh\\necho "agentmux 0.9.0-dev"\\n' > dist/agentmux; fi`,
      },
    });
    const checkout = join(s.root, "checkout");
    mkdirSync(checkout);
    writeFileSync(join(checkout, "package.json"), "{}\n");
    const r = runInstall(["--source", checkout], s.env);
    expect(r.code).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("npm install\nnpm run build\n");
    expect(r.out).toContain("installed version: agentmux 0.9.0-dev");

    const notCheckout = runInstall(["--source", s.root], s.env);
    expect(notCheckout.code).not.toBe(0);
    expect(notCheckout.err).toContain("is not an agentmux checkout");
  });

  test("--help documents every mode and setting; unknown options are refused", () => {
    const s = setup();
    const help = runInstall(["--help"], s.env);
    expect(help.code).toBe(0);
    for (const word of [
      "--from DIR",
      "--file PATH",
      "--source",
      "--dir DIR",
      "--version VER",
      "--force",
      "AGENTMUX_RELEASE_URL",
      "AGENTMUX_INSTALL_DIR",
      "darwin-arm64",
    ]) {
      expect(help.out).toContain(word);
    }
    const bad = runInstall(["--frmo", "x"], s.env);
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain("unknown option: --frmo");
  });
});

describe("install.sh lint", () => {
  test.skipIf(!Bun.which("shellcheck"))("is shellcheck-clean as POSIX sh", () => {
    const p = Bun.spawnSync(["shellcheck", "-s", "sh", INSTALL_SH], { stdout: "pipe", stderr: "pipe" });
    expect(p.stdout.toString()).toBe("");
    expect(p.exitCode).toBe(0);
  });
});

import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTmpDir, removeDir } from "../helpers/tmp.ts";
import { fakeBinary, runInstall, toolDir, writeRelease, type ToolOptions } from "./fixtures.ts";

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) removeDir(d);
  dirs = [];
});

/** A temp home with a release folder, an install folder and a PATH of chosen tools. */
function setup(opts: ToolOptions & { version?: string } = {}) {
  const root = makeTmpDir("amx-install-");
  dirs.push(root);
  const release = writeRelease(join(root, "release"), opts.version ?? "1.0.0");
  const installDir = join(root, "home", ".local", "bin");
  const bin = toolDir(join(root, "tools"), opts);
  const env = { HOME: join(root, "home"), PATH: bin, AGENTMUX_INSTALL_DIR: installDir, TMPDIR: root };
  return { root, release, installDir, bin, env, target: join(installDir, "agentmux") };
}

const linuxX64 = { uname: { s: "Linux", m: "x86_64" } };

describe("install.sh from a local release folder", () => {
  test("installs the binary for this platform, verified, mode 755, and reports version, tmux and PATH", () => {
    const s = setup({ ...linuxX64, tmuxVersion: "3.3a" });
    const r = runInstall(["--from", s.release], s.env);
    expect(r.code).toBe(0);
    expect(readFileSync(s.target, "utf8")).toBe(readFileSync(join(s.release, "agentmux-linux-x64"), "utf8"));
    expect(statSync(s.target).mode & 0o777).toBe(0o755);
    expect(r.out).toContain("verified SHA-256 of agentmux-linux-x64");
    expect(r.out).toContain(`installed agentmux 1.0.0 to ${s.target}`);
    expect(r.out).toContain("found tmux 3.3a");
    expect(r.out).toContain("installed version: agentmux 1.0.0");
    expect(r.err).toContain(`${s.installDir} is not on your PATH`);
    expect(r.err).toContain(`export PATH="${s.installDir}:$PATH"`);
    expect(readdirSync(s.installDir)).toEqual(["agentmux"]); // no staging file left behind
  });

  test("says so when the install folder is already on PATH", () => {
    const s = setup(linuxX64);
    const r = runInstall(["--from", s.release], { ...s.env, PATH: `${s.bin}:${s.installDir}` });
    expect(r.code).toBe(0);
    expect(r.out).toContain(`${s.installDir} is on your PATH`);
    expect(r.err).not.toContain("not on your PATH");
  });

  test("maps uname to the release asset: aarch64 → linux-arm64, Darwin arm64 → darwin-arm64, amd64 → x64", () => {
    for (const [uname, asset] of [
      [{ s: "Linux", m: "aarch64" }, "linux-arm64"],
      [{ s: "Darwin", m: "arm64" }, "darwin-arm64"],
      [{ s: "Darwin", m: "x86_64" }, "darwin-x64"],
      [{ s: "Linux", m: "amd64" }, "linux-x64"],
    ] as const) {
      const s = setup({ uname });
      const r = runInstall(["--from", s.release], s.env);
      expect(r.code).toBe(0);
      expect(readFileSync(s.target, "utf8")).toBe(fakeBinary("1.0.0", asset));
    }
  });

  test("a checksum mismatch is refused and nothing is installed", () => {
    const s = setup(linuxX64);
    writeFileSync(join(s.release, "agentmux-linux-x64"), fakeBinary("1.0.0", "linux-x64", " tampered"), { mode: 0o755 });
    const r = runInstall(["--from", s.release], s.env);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("checksum mismatch for agentmux-linux-x64");
    expect(r.err).toContain("nothing was installed");
    expect(existsSync(s.target)).toBe(false);
    expect(readdirSync(s.root).filter((f) => f.startsWith("agentmux-install"))).toEqual([]); // temp folder removed
  });

  test("an asset missing from SHA256SUMS is refused", () => {
    const s = setup(linuxX64);
    writeFileSync(join(s.release, "SHA256SUMS"), readFileSync(join(s.release, "SHA256SUMS"), "utf8").replace(/.*linux-x64\n/, ""));
    const r = runInstall(["--from", s.release], s.env);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("agentmux-linux-x64 is not listed");
    expect(existsSync(s.target)).toBe(false);
  });

  test("an unsupported OS or CPU names the platform and lists the supported ones", () => {
    const bsd = setup({ uname: { s: "FreeBSD", m: "amd64" } });
    const r1 = runInstall(["--from", bsd.release], bsd.env);
    expect(r1.code).not.toBe(0);
    expect(r1.err).toContain("unsupported operating system: FreeBSD");
    expect(r1.err).toContain("supported platforms: linux-x64, linux-arm64, darwin-x64, darwin-arm64");
    expect(existsSync(bsd.target)).toBe(false);

    const mips = setup({ uname: { s: "Linux", m: "mips" } });
    const r2 = runInstall(["--from", mips.release], mips.env);
    expect(r2.code).not.toBe(0);
    expect(r2.err).toContain("unsupported CPU architecture: mips on Linux");
    expect(r2.err).toContain("linux-arm64");
    expect(existsSync(mips.target)).toBe(false);
  });

  test("re-installing the same version changes nothing and says so", () => {
    const s = setup(linuxX64);
    expect(runInstall(["--from", s.release], s.env).code).toBe(0);
    const before = statSync(s.target);
    const r = runInstall(["--from", s.release], s.env);
    expect(r.code).toBe(0);
    expect(r.out).toContain("agentmux 1.0.0 is already installed");
    expect(r.out).toContain("nothing changed");
    const after = statSync(s.target);
    expect(after.ino).toBe(before.ino);
    expect(after.mtimeMs).toBe(before.mtimeMs);
  });

  test("a different version replaces the installed one; a different build of the same version needs --force", () => {
    const s = setup(linuxX64);
    expect(runInstall(["--from", s.release], s.env).code).toBe(0);

    const v2 = writeRelease(join(s.root, "release-2"), "2.0.0");
    const up = runInstall(["--from", v2], s.env);
    expect(up.code).toBe(0);
    expect(up.out).toContain("replaced agentmux 1.0.0 with agentmux 2.0.0");
    expect(up.out).toContain("installed version: agentmux 2.0.0");
    expect(readFileSync(s.target, "utf8")).toBe(fakeBinary("2.0.0", "linux-x64"));

    const rebuilt = writeRelease(join(s.root, "release-2b"), "2.0.0", " rebuilt");
    const same = runInstall(["--from", rebuilt], s.env);
    expect(same.out).toContain("--force reinstalls");
    expect(readFileSync(s.target, "utf8")).toBe(fakeBinary("2.0.0", "linux-x64"));
    const forced = runInstall(["--from", rebuilt, "--force"], s.env);
    expect(forced.code).toBe(0);
    expect(readFileSync(s.target, "utf8")).toBe(fakeBinary("2.0.0", "linux-x64", " rebuilt"));
  });

  test("missing tmux is a warning with install hints, not a failure; tmux older than 3.2 warns too", () => {
    const none = setup({ ...linuxX64, without: ["tmux"] });
    const r = runInstall(["--from", none.release], none.env);
    expect(r.code).toBe(0);
    expect(r.err).toContain("tmux is not installed");
    expect(r.err).toContain("apt install tmux");
    expect(r.err).toContain("brew install tmux");
    expect(existsSync(none.target)).toBe(true);

    const old = setup({ ...linuxX64, tmuxVersion: "3.1c" });
    const r2 = runInstall(["--from", old.release], old.env);
    expect(r2.code).toBe(0);
    expect(r2.err).toContain("tmux 3.1c is older than 3.2");

    const fine = setup({ ...linuxX64, tmuxVersion: "3.2" });
    const r3 = runInstall(["--from", fine.release], fine.env);
    expect(r3.out).toContain("found tmux 3.2");
    expect(r3.err).not.toMatch(/tmux is not installed|older than 3\.2/);
  });

  test("a binary that does not run here is refused", () => {
    const s = setup(linuxX64);
    writeFileSync(join(s.release, "agentmux-linux-x64"), "#!/bin/sh\nexit 126\n", { mode: 0o755 });
    const sums = Bun.spawnSync(["sha256sum", "agentmux-linux-x64"], { cwd: s.release, stdout: "pipe" }).stdout.toString();
    writeFileSync(join(s.release, "SHA256SUMS"), sums);
    const r = runInstall(["--from", s.release], s.env);
    expect(r.code).not.toBe(0);
    expect(r.err).toContain("does not run on this machine");
    expect(existsSync(s.target)).toBe(false);
  });
});

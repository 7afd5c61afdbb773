import { describe, expect, test } from "bun:test";
import { HELP, parseCommand } from "../../src/cli/args.ts";
import { COMMANDS, SPECS } from "../../src/cli/commands.ts";
import { commandHelp } from "../../src/cli/help.ts";
import * as setup from "../../src/cli/specs/setup.ts";
import * as start from "../../src/cli/specs/start.ts";
import { didYouMean, editDistance } from "../../src/config/suggest.ts";

describe("one spec per command drives the parser and the help", () => {
  test("the table holds each spec once, under its own name", () => {
    expect(Object.keys(COMMANDS)).toEqual(SPECS.map((s) => s.name));
    expect(new Set(SPECS.map((s) => s.name)).size).toBe(SPECS.length);
  });

  test("every visible flag, its alias and its placeholder are in the command's help; hidden flags are not", () => {
    for (const spec of SPECS) {
      const help = commandHelp(spec);
      expect(help).toStartWith("Usage: agentmux ");
      for (const [name, f] of Object.entries(spec.flags)) {
        const label = `--${name}${f.type === "string" ? ` ${f.value}` : ""}`;
        if (f.hidden) expect(help).not.toContain(`--${name}`);
        else expect(help).toContain(f.alias ? `-${f.alias}, ${label}` : label);
      }
      expect(parseCommand(spec, ["--help"])).toBe(HELP);
      expect(parseCommand(spec, ["-h"])).toBe(HELP);
    }
  });

  test("parsed flags follow the spec: defaults, aliases, =values, repeated words after --", () => {
    const v = parseCommand(setup.validate, ["plan.yaml", "-k", "plan"]);
    expect(v).toEqual({ flags: { kind: "plan" }, positionals: ["plan.yaml"] });
    const r = parseCommand(start.run, ["--ci", "--name=x", "Add", "--", "--json", "it"]);
    expect(r === HELP ? null : r.flags).toEqual({
      name: "x",
      "product-manager": false,
      worktree: false,
      "keep-session": false,
      ci: true,
      json: false,
      serve: false,
      config: undefined,
    });
    expect(r === HELP ? null : r.positionals).toEqual(["Add", "--json", "it"]);
  });

  test("usage errors name the problem", () => {
    expect(() => parseCommand(setup.validate, [])).toThrow("the file to check is required");
    expect(() => parseCommand(setup.validate, ["a", "b"])).toThrow('unexpected argument "b"');
    expect(() => parseCommand(setup.validate, ["a", "--kind"])).toThrow("option --kind needs a value (KIND)");
    expect(() => parseCommand(setup.completions, ["tcsh"])).toThrow('unknown shell "tcsh"; valid shells: bash, zsh, fish');
    expect(() => parseCommand(setup.configure, ["--provider", "default", "--mdoel", "x"])).toThrow("unknown option --mdoel — did you mean --model?");
    expect(() => parseCommand(setup.config, ["--json=yes"])).toThrow("option --json takes no value");
  });
});

describe("did you mean", () => {
  test("edit distance counts a swap of neighbours as one edit", () => {
    expect(editDistance("stauts", "status")).toBe(1);
    expect(editDistance("status", "status")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
  });

  test("the closest candidate within two edits, else the only one the word begins", () => {
    const commands = SPECS.filter((s) => !s.hidden).map((s) => s.name);
    expect(didYouMean("stauts", commands)).toBe("status");
    expect(didYouMean("RESME", commands)).toBe("resume");
    expect(didYouMean("sess", commands)).toBe("sessions");
    expect(didYouMean("confg", commands)).toBe("config");
    expect(didYouMean("con", commands)).toBeUndefined(); // a prefix of config and configure; "run" is two edits away
    expect(didYouMean("refactor", commands)).toBeUndefined();
    expect(didYouMean("x", commands)).toBeUndefined();
  });
});

import type { CheckKind, CheckSpec } from "../schema/checks.ts";

const RULES: ReadonlyArray<[CheckKind, RegExp]> = [
  ["type_check", /\b(type-?check|typecheck|types|tsc|mypy|pyright|vue-tsc|flow)\b/i],
  ["lint", /\b(lint|eslint|ruff|clippy|vet|golangci-lint|flake8|pylint|biome|stylelint|fmt|format|prettier|rubocop|shellcheck)\b/i],
  ["build", /\b(build|compile|bundle|tsup|webpack|vite build)\b/i],
  ["test", /\b(tests?|spec|pytest|jest|vitest|mocha|ava|unit|e2e|integration|go test|cargo test|ctest|rspec|phpunit)\b/i],
];

/** What a check stands for: its `kind` when given, else read from its name, then its command. */
export function checkKind(name: string, spec: Pick<CheckSpec, "command" | "kind">): CheckKind {
  if (spec.kind) return spec.kind;
  for (const text of [name.replace(/[_.-]/g, " "), spec.command]) {
    for (const [kind, re] of RULES) if (re.test(text)) return kind;
  }
  return "other";
}

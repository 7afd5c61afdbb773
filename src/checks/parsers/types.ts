import type { CheckFinding, TestCounts } from "../../schema/checks.ts";

/** A finding as an output names it: its path as printed (relative to the check's folder, or absolute). */
export type RawFinding = Omit<CheckFinding, "check" | "pre_existing">;

export type Parsed = { findings: RawFinding[]; tests?: TestCounts };

/** Reads one tool's output (control sequences already stripped). */
export type OutputParser = (text: string) => Parsed;

export const int = (s: string | undefined): number | undefined => (s === undefined || s === "" ? undefined : Number(s));

export const lines = (text: string): string[] => text.split("\n");

/** Counts that add up, or undefined when nothing was counted. */
export function counts(passing: number, failing: number): TestCounts | undefined {
  return passing + failing > 0 ? { passing, failing, total: passing + failing } : undefined;
}

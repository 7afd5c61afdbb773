/** What marks a line that says why a check failed, in the output of the usual tools. */
const MATTERS =
  /\b(error|errors|fail|failed|failure|failing|panic|panicked|exception|traceback|assert\w*|expected|received|not ok|undefined|cannot|unable)\b|\bexit (?:code|status) [1-9]|✗|✕|×|FAIL|ERR!/i;
const NOISE = /^\s*(at |\d+ \|)|node_modules\//;

/**
 * The lines of a failing check's tail worth putting in a fix request: those that name an error
 * or a failure (stack frames dropped), at most `max`; the last lines of the tail when none do.
 */
export function failingLines(tail: readonly string[], max = 30): string[] {
  const picked = tail.filter((l) => MATTERS.test(l) && !NOISE.test(l) && l.trim() !== "");
  if (picked.length === 0) return tail.filter((l) => l.trim() !== "").slice(-Math.min(15, max));
  return picked.slice(-max);
}

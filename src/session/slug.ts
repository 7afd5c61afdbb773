/** A filesystem- and tmux-safe slug: lowercase ASCII words joined by "-", ≤ 8 words, ≤ 48 chars. */
export function slugify(text: string, fallback = "feature"): string {
  const words = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .slice(0, 8);
  let slug = "";
  for (const w of words) {
    const next = slug ? `${slug}-${w}` : w;
    if (next.length > 48) break;
    slug = next;
  }
  return slug || fallback.slice(0, 48);
}

/** `YYYYMMDD-HHMMSS` in local time. */
export function timestampId(d = new Date()): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}${p(d.getMonth() + 1)}${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}${p(d.getSeconds())}`;
}

/** The feature slug of a session id (the id without its timestamp prefix). */
export function featureNameOf(sessionId: string): string {
  return sessionId.replace(/^\d{8}-\d{6}-/, "");
}

export const SESSION_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;

/** Why `name` cannot be a session folder / tmux session name, or undefined when it can. */
export function sessionNameProblem(name: string): string | undefined {
  if (SESSION_NAME_RE.test(name)) return undefined;
  if (name === "") return "is empty";
  if (name.length > 80) return `is ${name.length} characters long (at most 80)`;
  if (!/^[A-Za-z0-9]/.test(name)) return `starts with ${JSON.stringify(name[0])} (it must start with a letter or digit)`;
  const bad = [...new Set([...name].filter((c) => !/[A-Za-z0-9._-]/.test(c)))];
  return `contains ${bad.map((c) => JSON.stringify(c)).join(", ")}`;
}

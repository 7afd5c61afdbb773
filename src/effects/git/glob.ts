/** True when a path pattern uses glob syntax (`*`, `?`, `[`). */
export function hasGlob(s: string): boolean {
  return /[*?[]/.test(s);
}

/**
 * The body of a regular expression for a .gitignore-style glob over `/`-separated paths:
 * `**` spans folders (`a/**`, `**\/b`, `a/**\/b`), `*` and `?` stay within one name, `[…]` is a
 * character class (`[!…]` negated). Null for an unclosed `[`.
 */
export function globToRegExp(glob: string): string | null {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const atStart = i === 0 || glob[i - 1] === "/";
        const next = glob[i + 2];
        if (atStart && next === "/") {
          out += "(?:.*/)?";
          i += 2;
        } else {
          out += ".*";
          i += 1;
        }
      } else out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) return null;
      let body = glob.slice(i + 1, end);
      if (body.startsWith("!")) body = "^" + body.slice(1);
      out += `[${body.replace(/\\/g, "\\\\")}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return out;
}

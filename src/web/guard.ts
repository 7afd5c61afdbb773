import { timingSafeEqual } from "node:crypto";

/**
 * Who may talk to `agentmux serve`, checked on every request before any route runs:
 * - the Host header names this server: a loopback name (any port: an SSH tunnel may forward
 *   another local port) or a name given with --host / --allow-host, exactly. Anything else is a
 *   DNS-rebinding attempt (a hostile page whose name now resolves to 127.0.0.1);
 * - an Origin header, when a browser sends one, is this very server (same scheme-less host as
 *   Host): no other site's page may read or write through the user's browser;
 * - the token: `Authorization: Bearer`, the `X-Agentmux-Token` header, the cookie the page's
 *   first visit set, or `?token=` (only to open the page; it is swapped for the cookie at once);
 * - a write (POST) needs answering switched on, an Origin, and the token in the header: a
 *   cookie alone never answers a run (a cross-site form cannot set a header).
 */
export type Access = {
  token: string;
  /** names other than loopback that reach this server (the --host value, --allow-host names), lower case, without port */
  names: ReadonlySet<string>;
  answer: boolean;
};

export const TOKEN_COOKIE = "agentmux_token";
export const TOKEN_HEADER = "x-agentmux-token";

export type Verdict = { ok: true; write: boolean; viaQuery: boolean } | { ok: false; status: 400 | 401 | 403 | 421; reason: string };

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** `host[:port]` → the host part, lower case (`[::1]:80` → `[::1]`); null when it is no host. */
export function hostName(hostHeader: string): string | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i.exec(hostHeader.trim());
  return m ? m[1]!.toLowerCase() : null;
}

export const allowedName = (name: string, access: Pick<Access, "names">) => LOOPBACK.has(name) || access.names.has(name);

function sameSecret(given: string | null | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function cookieValue(header: string | null, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return null;
}

function bearer(req: Request): string | null {
  const h = req.headers.get("authorization");
  return h && /^Bearer\s+/i.test(h) ? h.replace(/^Bearer\s+/i, "").trim() : null;
}

export function checkRequest(req: Request, access: Access): Verdict {
  const host = req.headers.get("host") ?? "";
  const name = hostName(host);
  if (!name || !allowedName(name, access))
    return {
      ok: false,
      status: 421,
      reason: `wrong Host header "${host.slice(0, 100)}": this server answers to localhost, 127.0.0.1, [::1] and the names given with --host or --allow-host`,
    };
  const origin = req.headers.get("origin");
  if (origin !== null) {
    let originHost: string | null = null;
    try {
      const u = new URL(origin);
      if (u.protocol === "http:" || u.protocol === "https:") originHost = u.host.toLowerCase();
    } catch {}
    if (originHost !== host.trim().toLowerCase()) return { ok: false, status: 403, reason: `cross-origin request from "${origin.slice(0, 100)}" refused` };
  }
  const write = req.method !== "GET" && req.method !== "HEAD";
  const url = new URL(req.url);
  const fromHeader = req.headers.get(TOKEN_HEADER) ?? bearer(req);
  if (write) {
    if (!access.answer) return { ok: false, status: 403, reason: "answering from the page is off: start the server with agentmux serve --answer" };
    if (origin === null) return { ok: false, status: 403, reason: "a write needs an Origin header (sent by every browser)" };
    if (!sameSecret(fromHeader, access.token)) return { ok: false, status: 401, reason: "a write needs the token in the X-Agentmux-Token header" };
    return { ok: true, write, viaQuery: false };
  }
  if (sameSecret(fromHeader, access.token) || sameSecret(cookieValue(req.headers.get("cookie"), TOKEN_COOKIE), access.token))
    return { ok: true, write, viaQuery: false };
  if (sameSecret(url.searchParams.get("token"), access.token)) return { ok: true, write, viaQuery: true };
  return { ok: false, status: 401, reason: "no valid token: open the link agentmux serve printed (its token is also in the server's token file)" };
}

/** Sent with every answer, refusals included. No inline script or style can run; nothing may frame the page. */
export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/** The cookie that replaces `?token=` after the first visit: not readable by scripts, not sent by other sites' subrequests. */
export const tokenCookie = (token: string) => `${TOKEN_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax`;

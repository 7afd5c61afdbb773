/** The proxy variables an HTTP client reads, in the order most clients prefer them. */
const PROXY_VARS = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy"] as const;

/** The first HTTP(S) proxy set in `env` (`NAME=value`), or null. */
export function proxyIn(env: Record<string, string | undefined>): { name: string; value: string } | null {
  for (const name of PROXY_VARS) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return null;
}

/**
 * NO_PROXY with loopback added: agentmux's endpoint is always on 127.0.0.1, and an HTTP client
 * that honours the proxy variables (Bun's fetch does) would otherwise send even that through it.
 */
export function noProxyWithLoopback(current: string | undefined): string {
  const have = (current ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const host of ["127.0.0.1", "localhost", "::1"]) if (!have.includes(host)) have.push(host);
  return have.join(",");
}

/**
 * The page builds its DOM from data with these helpers only: text goes in as text nodes
 * (textContent), never as markup, so an agent's `<img onerror=…>` shows as those characters.
 */
type Child = Node | string | null | undefined | false;
type Attrs = {
  class?: string;
  href?: string;
  title?: string;
  type?: string;
  id?: string;
  for?: string;
  name?: string;
  value?: string;
  placeholder?: string;
  rows?: string;
  "aria-label"?: string;
  "data-file"?: string;
};

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === "string" ? document.createTextNode(c) : c);
  return el;
}

export function replace(parent: Element, ...children: Child[]): void {
  parent.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false));
}

/** A styled line of a view (the same segments the terminal shows), as spans with one class per style. */
export type Seg = { t: string; s?: string[] };
export function lineEl(segs: Seg[]): HTMLElement {
  const row = h("div", { class: "ln" });
  for (const x of segs)
    row.append(x.s?.length ? h("span", { class: x.s.map((s) => `st-${s.replace(/[^a-z]/g, "")}`).join(" ") }, x.t) : document.createTextNode(x.t));
  return row;
}

export const meta = (name: string) => document.querySelector(`meta[name="${name}"]`)?.getAttribute("content") ?? "";

export async function getJson<T>(path: string): Promise<T> {
  const r = await fetch(path, { credentials: "same-origin" });
  const body = await r.json().catch(() => ({ error: `${r.status} ${r.statusText}` }));
  if (!r.ok) throw new Error(body.error ?? `${r.status}`);
  return body as T;
}

/** A write: the token goes in its header (a cookie alone answers nothing). */
export async function postJson(path: string, body: unknown): Promise<{ ok: boolean; text: string }> {
  const r = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-agentmux-token": meta("agentmux-token") },
    body: JSON.stringify(body),
  });
  const b = await r.json().catch(() => ({}));
  return { ok: r.ok, text: r.ok ? (b.said ?? "done") : (b.error ?? `${r.status} ${r.statusText}`) };
}

export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return "–";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

export const clock = (iso: string | null | undefined) => {
  const t = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(t) ? "" : new Date(t).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
};

export const money = (usd: number | null | undefined) => (usd === null || usd === undefined ? "" : `$${usd.toFixed(usd < 1 ? 3 : 2)}`);

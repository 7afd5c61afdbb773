/** Time formatting shared by the views. All inputs are ISO strings or epoch ms; `now` is passed in. */

export const ms = (iso: string | undefined): number | undefined => {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
};

/** `h:mm:ss` (the monitor clock). */
export function clock(elapsedMs: number): string {
  const s = Math.max(0, Math.floor(elapsedMs / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
}

/** `1h 2m 3s`, `4m 5s`, `6s` (goodbye screens, status timeline). */
export function duration(elapsedMs: number): string {
  const s = Math.max(0, Math.round(elapsedMs / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h) return `${h}h ${m}m ${s % 60}s`;
  if (m) return `${m}m ${s % 60}s`;
  return `${s}s`;
}

/** `just now`, `5m ago`, `3h ago`, `2d ago`. */
export function age(elapsedMs: number): string {
  const s = Math.max(0, Math.floor(elapsedMs / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86400)}d ago`;
}

/** Local `HH:MM` of an ISO time or epoch ms. */
export function hhmm(at: string | number): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return "--:--";
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
}

/** `HH:MM` on the day of `now`, else `YYYY-MM-DD HH:MM` (local time). */
export function when(at: number, now: number): string {
  const d = new Date(at);
  if (Number.isNaN(d.getTime())) return "--:--";
  if (d.toDateString() === new Date(now).toDateString()) return hhmm(at);
  const date = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  return `${date} ${hhmm(at)}`;
}

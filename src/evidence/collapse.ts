/**
 * Collapsing of the audit trail for the certificate page (pure).
 *
 * Rule (documented in the interface contract, POST /v1/sign):
 * 1. Entries are put in time order: sorted by their parsed `timestamp`
 *    (ISO 8601, `Z` or an offset), stable, so entries with the same instant keep
 *    their input order. Entries whose timestamp does not parse go last, in
 *    input order.
 * 2. Consecutive entries (in that order) are collapsed into one line when they
 *    have the same `type` and the same field. The field of an entry is the first
 *    of `data.fieldId`, `data.field`, `data.id` that is a string or a finite
 *    number (compared as strings); entries without any of these have no field
 *    and collapse with neighbours of the same type that have none either (e.g.
 *    repeated `scroll` events).
 * 3. `submit` entries are never collapsed: each is its own line.
 *
 * A line keeps its first and last entries, so the page can show the first and
 * last time and the final value (`last.data.value`, or `last.data.percent` for
 * scrolls, which may be null).
 */

export interface AuditEntry {
  type?: string;
  timestamp: string;
  data?: unknown;
  [key: string]: unknown;
}

export interface AuditLine {
  /** `type` of the entries, null when absent. */
  type: string | null;
  /** The field the entries are about (see rule 2), null when none. */
  field: string | null;
  /** How many entries were collapsed into this line (≥ 1). */
  count: number;
  first: AuditEntry;
  last: AuditEntry;
  /** Epoch milliseconds of first/last, null when the timestamp does not parse. */
  firstTime: number | null;
  lastTime: number | null;
}

/** Types whose consecutive entries are never collapsed. */
export const NEVER_COLLAPSED_TYPES: ReadonlySet<string> = new Set(["submit"]);

const ISO = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/**
 * Parses an ISO 8601 date-time to epoch milliseconds (fractions beyond
 * milliseconds are truncated); no zone means UTC. Null when it does not parse.
 */
export function parseTimestamp(value: unknown): number | null {
  if (typeof value !== "string") return null;
  const m = ISO.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) return null;
  const ms = frac === undefined ? 0 : Number(frac.slice(0, 3).padEnd(3, "0"));
  let offsetMinutes = 0;
  if (zone !== undefined && zone !== "Z" && zone !== "z") {
    const sign = zone.startsWith("-") ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const oh = Number(digits.slice(0, 2));
    const om = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
    if (oh > 23 || om > 59) return null;
    offsetMinutes = sign * (oh * 60 + om);
  }
  const time = Date.UTC(Number(y), month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000;
  return Number.isFinite(time) ? time : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The field an entry is about: `data.fieldId`, else `data.field`, else `data.id`. */
export function fieldOf(entry: AuditEntry): string | null {
  const data = entry.data;
  if (!isRecord(data)) return null;
  for (const key of ["fieldId", "field", "id"]) {
    const v = data[key];
    if (typeof v === "string") return v;
    if (typeof v === "number" && Number.isFinite(v)) return String(v);
  }
  return null;
}

function typeOf(entry: AuditEntry): string | null {
  return typeof entry.type === "string" ? entry.type : null;
}

/** Entries in time order (stable; unparseable timestamps last). */
export function sortAuditTrail(entries: readonly AuditEntry[]): { entry: AuditEntry; time: number | null }[] {
  const keyed = entries.map((entry, index) => ({ entry, time: parseTimestamp(entry.timestamp), index }));
  keyed.sort((a, b) => {
    if (a.time === null || b.time === null) {
      if (a.time === b.time) return a.index - b.index;
      return a.time === null ? 1 : -1;
    }
    return a.time - b.time || a.index - b.index;
  });
  return keyed.map(({ entry, time }) => ({ entry, time }));
}

export function collapseAuditTrail(entries: readonly AuditEntry[]): AuditLine[] {
  const lines: AuditLine[] = [];
  let current: AuditLine | undefined;
  for (const { entry, time } of sortAuditTrail(entries)) {
    const type = typeOf(entry);
    const field = fieldOf(entry);
    const collapsible = type === null || !NEVER_COLLAPSED_TYPES.has(type);
    if (current && collapsible && current.type === type && current.field === field) {
      current.count++;
      current.last = entry;
      current.lastTime = time;
      continue;
    }
    current = { type, field, count: 1, first: entry, last: entry, firstTime: time, lastTime: time };
    lines.push(current);
  }
  return lines;
}

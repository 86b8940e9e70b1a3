import { describe, expect, it } from "vitest";
import { collapseAuditTrail, fieldOf, parseTimestamp, type AuditEntry } from "./collapse";

const at = (s: number) => new Date(Date.UTC(2026, 10, 21, 10, 0, s)).toISOString();

describe("parseTimestamp", () => {
  it("reads Z, offsets, fractions and rejects junk", () => {
    expect(parseTimestamp("2026-11-21T10:00:00Z")).toBe(Date.UTC(2026, 10, 21, 10, 0, 0));
    expect(parseTimestamp("2026-11-21T12:00:00+02:00")).toBe(Date.UTC(2026, 10, 21, 10, 0, 0));
    expect(parseTimestamp("2026-11-21T05:30:00-0430")).toBe(Date.UTC(2026, 10, 21, 10, 0, 0));
    expect(parseTimestamp("2026-11-21T10:00:00.123456Z")).toBe(Date.UTC(2026, 10, 21, 10, 0, 0, 123));
    expect(parseTimestamp("2026-11-21 10:00:00.5Z")).toBe(Date.UTC(2026, 10, 21, 10, 0, 0, 500));
    expect(parseTimestamp("yesterday")).toBeNull();
    expect(parseTimestamp("2026-13-01T00:00:00Z")).toBeNull();
    expect(parseTimestamp(42)).toBeNull();
  });
});

describe("fieldOf", () => {
  it("prefers data.fieldId, then data.field, then data.id", () => {
    expect(fieldOf({ timestamp: at(0), data: { fieldId: "a", field: "b", id: "c" } })).toBe("a");
    expect(fieldOf({ timestamp: at(0), data: { field: "b", id: "c" } })).toBe("b");
    expect(fieldOf({ timestamp: at(0), data: { id: 7 } })).toBe("7");
    expect(fieldOf({ timestamp: at(0), data: { fieldId: null, field: { x: 1 }, id: "c" } })).toBe("c");
    expect(fieldOf({ timestamp: at(0), data: "name" })).toBeNull();
    expect(fieldOf({ timestamp: at(0) })).toBeNull();
  });
});

describe("collapseAuditTrail", () => {
  it("collapses consecutive events of the same type and field, keeping first, last and count", () => {
    const trail: AuditEntry[] = [
      { type: "ready", timestamp: at(0) },
      ...Array.from({ length: 5 }, (_, i) => ({
        type: "field_change",
        timestamp: at(1 + i),
        data: { fieldId: "name", value: "Ada".slice(0, i + 1) },
      })),
      ...Array.from({ length: 3 }, (_, i) => ({
        type: "field_change",
        timestamp: at(10 + i),
        data: { fieldId: "email", value: "a@b".slice(0, i + 1) },
      })),
      { type: "field_change", timestamp: at(20), data: { fieldId: "name", value: "Ada L" } },
      { type: "submit", timestamp: at(30) },
    ];
    const lines = collapseAuditTrail(trail);
    expect(lines.map((l) => [l.type, l.field, l.count])).toEqual([
      ["ready", null, 1],
      ["field_change", "name", 5],
      ["field_change", "email", 3],
      ["field_change", "name", 1],
      ["submit", null, 1],
    ]);
    expect(lines[1]!.first.timestamp).toBe(at(1));
    expect(lines[1]!.last.timestamp).toBe(at(5));
    expect(lines[1]!.firstTime).toBe(Date.parse(at(1)));
    expect(lines[1]!.lastTime).toBe(Date.parse(at(5)));
    expect((lines[1]!.last.data as { value: string }).value).toBe("Ada");
  });

  it("collapses scrolls, including a null percent", () => {
    const lines = collapseAuditTrail([
      { type: "scroll", timestamp: at(1), data: { percent: 10 } },
      { type: "scroll", timestamp: at(2), data: { percent: null } },
      { type: "scroll", timestamp: at(3), data: { percent: 55 } },
      { type: "submit", timestamp: at(4) },
    ]);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ type: "scroll", field: null, count: 3 });
    expect(lines[0]!.last.data).toEqual({ percent: 55 });
  });

  it("never collapses submits", () => {
    const lines = collapseAuditTrail([
      { type: "submit", timestamp: at(1) },
      { type: "submit", timestamp: at(2) },
    ]);
    expect(lines.map((l) => l.count)).toEqual([1, 1]);
  });

  it("sorts by time (offsets understood), stably, unparseable timestamps last", () => {
    const lines = collapseAuditTrail([
      { type: "c", timestamp: "2026-11-21T12:00:05+02:00" }, // 10:00:05Z
      { type: "bad", timestamp: "not a time" },
      { type: "a", timestamp: at(1) },
      { type: "b1", timestamp: at(3) },
      { type: "b2", timestamp: at(3) },
      { type: "submit", timestamp: at(9) },
    ]);
    expect(lines.map((l) => l.type)).toEqual(["a", "b1", "b2", "c", "submit", "bad"]);
    expect(lines.at(-1)!.firstTime).toBeNull();
  });

  it("collapses entries without type or field together, keeps other keys", () => {
    const lines = collapseAuditTrail([
      { timestamp: at(1), note: "x" },
      { timestamp: at(2), note: "y" },
      { type: "focus", timestamp: at(3), data: { id: "a" } },
      { type: "focus", timestamp: at(4), data: { id: "b" } },
    ]);
    expect(lines.map((l) => [l.type, l.field, l.count])).toEqual([
      [null, null, 2],
      ["focus", "a", 1],
      ["focus", "b", 1],
    ]);
    expect(lines[0]!.last.note).toBe("y");
  });

  it("handles an empty trail and does not mutate its input", () => {
    expect(collapseAuditTrail([])).toEqual([]);
    const trail = [
      { type: "b", timestamp: at(2) },
      { type: "a", timestamp: at(1) },
    ];
    const copy = structuredClone(trail);
    collapseAuditTrail(trail);
    expect(trail).toEqual(copy);
  });
});

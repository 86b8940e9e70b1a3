/**
 * Tab stops: which stop a tab at a given position goes to, and how its leader is drawn.
 * Positions are measured from the paragraph box's left edge (Word's and LibreOffice's DOCX mode:
 * tab positions are not relative to the indent).
 */
import type { TabAlign, TabLeader, TabStop } from "../../model/types";

export interface ResolvedStop {
  pos: number;
  align: Exclude<TabAlign, "bar" | "clear">;
  leader: TabLeader;
}

/** Smallest advance a default tab stop must give: closer stops are skipped (Word and LibreOffice do the same). */
const MIN_DEFAULT_ADVANCE = 0;

/**
 * The stop a tab starting at `x` moves to: the first explicit stop after `x`, else the implicit stop
 * at the hanging indent (first line of a hanging paragraph), else the next multiple of the default
 * tab stop, counted from the left indent.
 */
export function nextStop(x: number, tabs: readonly TabStop[], defaultTab: number, implicitStop: number | null, origin: number): ResolvedStop {
  const eps = 0.01;
  let best: ResolvedStop | null = null;
  for (const t of tabs) {
    if (t.align === "bar" || t.align === "clear") continue;
    if (t.pos > x + eps) {
      best = { pos: t.pos, align: t.align, leader: t.leader };
      break;
    }
  }
  if (implicitStop !== null && implicitStop > x + eps && (!best || implicitStop < best.pos)) return { pos: implicitStop, align: "left", leader: "none" };
  if (best) return best;
  const step = defaultTab > 0.5 ? defaultTab : 36;
  const k = Math.floor((x - origin + MIN_DEFAULT_ADVANCE) / step + 1e-6) + 1;
  return { pos: origin + k * step, align: "left", leader: "none" };
}

/** Character repeated to draw a leader, or null when the leader is a line (or none). */
export function leaderChar(leader: TabLeader): string | null {
  switch (leader) {
    case "dot":
      return ".";
    case "hyphen":
      return "-";
    case "middleDot":
      return "\u00B7";
    default:
      return null;
  }
}

/**
 * Kashida justification: where a justified line of Arabic-script text stretches. Word and
 * LibreOffice widen words, not the spaces between them: each word gets at most one kashida (a
 * lengthened joining stroke) at the place calligraphic practice prefers, in this order of
 * priority (LibreOffice 7.4's rules, after the "kashida secret" rules of Internet Explorer 5.5):
 *
 *   0. after a tatweel the author typed;
 *   1. after a seen or sad (not before a zero-width non-joiner);
 *   2. before a final teh marbuta, dal, or a word-final heh;
 *   3. before a final alef, or a word-final lam, tah, kaf or gaf;
 *   4. before a medial beh-like letter followed by a reh or yeh;
 *   5. before a final waw, or a word-final ain, qaf or feh;
 *   6. before a reh.
 *
 * A position "before" a letter needs the letter before it to join forward (and the pair not to be
 * a lam-alef ligature). Among positions of the same priority the last one in the word wins.
 */
import { joiningType } from "./arabic-joining";

const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const set = (...parts: (number | number[])[]) => new Set(parts.flat());

// Unicode joining groups (ArabicShaping.txt) of the Arabic, Persian and Urdu letters.
const SEEN_OR_SAD = set(
  0x633,
  0x634,
  0x635,
  0x636,
  range(0x69a, 0x69e),
  0x6fa,
  0x6fb,
  0x75c,
  0x76d,
  0x770,
  0x77d,
  0x77e,
);
const TEH_MARBUTA = set(0x629, 0x6c0, 0x6c3, 0x6d5);
const DAL = set(0x62f, 0x630, range(0x688, 0x690), 0x6ee, 0x759, 0x75a);
const HEH = set(0x647);
const ALEF = set(0x622, 0x623, 0x625, 0x627, 0x671, 0x672, 0x673, 0x675, 0x773, 0x774);
const LAM = set(0x644, range(0x6b5, 0x6b8), 0x76a);
const TAH = set(0x637, 0x638, 0x69f);
const KAF = set(0x643, range(0x6ac, 0x6ae), 0x77f);
const GAF = set(0x6a9, 0x6ab, range(0x6af, 0x6b4), range(0x762, 0x764));
const YEH = set(
  0x626,
  0x649,
  0x64a,
  0x678,
  0x6cc,
  0x6ce,
  0x6d0,
  0x6d1,
  range(0x63d, 0x63f),
  0x6cd,
  0x6d2,
  0x6d3,
  0x77a,
  0x77b,
);
const BEH_LIKE = set(
  0x628,
  0x62a,
  0x62b,
  0x66e,
  range(0x679, 0x680),
  range(0x750, 0x756),
  0x646,
  0x6b9,
  0x6ba,
  0x6bb,
  0x6bc,
  0x6bd,
  range(0x767, 0x769),
  0x626,
  0x649,
  0x64a,
  0x678,
  0x6cc,
  0x6ce,
  0x6d0,
  0x6d1,
  range(0x63d, 0x63f),
  0x77a,
  0x77b,
);
const REH = set(0x631, 0x632, range(0x691, 0x699), 0x6ef, 0x75b, 0x76b, 0x76c, 0x771);
const WAW = set(0x624, 0x648, 0x676, 0x677, range(0x6c4, 0x6cb), 0x6cf, 0x778, 0x779);
const AIN = set(0x639, 0x63a, 0x6a0, 0x6fc, range(0x75d, 0x75f));
const QAF = set(0x642, 0x6a7, 0x6a8);
const FEH = set(0x641, range(0x6a1, 0x6a6), 0x760, 0x761);

const TATWEEL = 0x640;
const ZWNJ = 0x200c;

/** Letters, marks, tatweel and joiners of the Arabic script: what a word is made of here. */
function isWordChar(cp: number): boolean {
  return (
    (cp >= 0x610 && cp <= 0x61a) ||
    (cp >= 0x620 && cp <= 0x65f) ||
    (cp >= 0x66e && cp <= 0x6d3) ||
    (cp >= 0x6d5 && cp <= 0x6dc) ||
    (cp >= 0x6df && cp <= 0x6e8) ||
    (cp >= 0x6ea && cp <= 0x6ef) ||
    (cp >= 0x6fa && cp <= 0x6ff) ||
    (cp >= 0x750 && cp <= 0x77f) ||
    (cp >= 0x8a0 && cp <= 0x8ff) ||
    cp === ZWNJ ||
    cp === 0x200d
  );
}

const connectsToPrevious = (cp: number, prev: number) => {
  const t = joiningType(prev);
  return t !== "R" && t !== "U" && !(LAM.has(prev) && ALEF.has(cp));
};

/** The kashida of one word (code points): index of the letter it follows, or -1. */
function kashidaInWord(word: readonly number[]): number {
  let len = word.length;
  // Trailing marks do not make a letter non-final.
  while (len > 0 && joiningType(word[len - 1]!) === "T") len--;
  let best = -1;
  let level = 7;
  let prev = 0;
  let prevIdx = -1;
  for (let i = 0; i < len; i++) {
    const c = word[i]!;
    const last = i === len - 1;
    const before = (l: number) => {
      if (prevIdx >= 0 && connectsToPrevious(c, prev)) {
        best = prevIdx;
        level = l;
      }
    };
    if (c === TATWEEL) {
      best = i;
      level = 0;
    }
    if (level >= 1 && !last && SEEN_OR_SAD.has(c) && word[i + 1] !== ZWNJ) {
      best = i;
      level = 1;
    }
    if (level >= 2 && i > 0 && (TEH_MARBUTA.has(c) || DAL.has(c) || (HEH.has(c) && last))) before(2);
    if (level >= 3 && i > 0 && (ALEF.has(c) || ((LAM.has(c) || TAH.has(c) || KAF.has(c) || GAF.has(c)) && last)))
      before(3);
    if (level >= 4 && i > 0 && !last && BEH_LIKE.has(c) && (REH.has(word[i + 1]!) || YEH.has(word[i + 1]!))) before(4);
    if (level >= 5 && i > 0 && (WAW.has(c) || ((AIN.has(c) || QAF.has(c) || FEH.has(c)) && last))) before(5);
    if (level >= 6 && i > 0 && REH.has(c)) before(6);
    if (joiningType(c) !== "T") {
      prev = c;
      prevIdx = i;
    }
  }
  return best;
}

/**
 * Kashida positions in `text`, one per Arabic-script word at most: UTF-16 offsets the stretch is
 * inserted at (after the letter it follows and that letter's marks), ascending.
 */
export function kashidaPositions(text: string): number[] {
  const out: number[] = [];
  const cps: number[] = [];
  const offsets: number[] = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i)!;
    cps.push(cp);
    offsets.push(i);
    i += cp > 0xffff ? 2 : 1;
  }
  offsets.push(text.length);
  for (let s = 0; s < cps.length;) {
    if (!isWordChar(cps[s]!)) {
      s++;
      continue;
    }
    let e = s;
    while (e < cps.length && isWordChar(cps[e]!)) e++;
    const at = kashidaInWord(cps.slice(s, e));
    if (at >= 0) {
      // Marks sit on their letter: the stretch goes after them.
      let after = s + at + 1;
      while (after < e && joiningType(cps[after]!) === "T") after++;
      // Nothing to stretch at the very end of a word (a typed tatweel there joins nothing).
      if (after < e) out.push(offsets[after]!);
    }
    s = e;
  }
  return out;
}

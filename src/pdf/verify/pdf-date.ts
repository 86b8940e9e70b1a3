/**
 * PDF date strings (ISO 32000-2 §7.9.4): `D:YYYYMMDDHHmmSSOHH'mm'`, every part
 * after the year optional, the offset `Z`, `+HH'mm'` or `-HH'mm'` (apostrophes
 * optional). Returns null for anything that is not a real date.
 */
export function parsePdfDate(text: string | null): Date | null {
  if (!text) return null;
  const m =
    /^\s*(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?\s*(?:([Zz+\-])\s*(\d{2})?'?\s*(\d{2})?'?)?/.exec(text);
  if (!m) return null;
  const [, y, mo = "01", d = "01", h = "00", mi = "00", s = "00", sign, oh = "00", om = "00"] = m;
  const parts = [Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)];
  const [Y, M, D, H, Mi, S] = parts as [number, number, number, number, number, number];
  if (M < 1 || M > 12 || D < 1 || D > 31 || H > 23 || Mi > 59 || S > 59) return null;
  let t = Date.UTC(Y, M - 1, D, H, Mi, S);
  if (sign === "+" || sign === "-") {
    const off = (Number(oh) * 60 + Number(om)) * 60_000;
    t += sign === "+" ? -off : off;
  }
  const date = new Date(t);
  return Number.isNaN(date.getTime()) ? null : date;
}

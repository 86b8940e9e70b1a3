/** The catalog's font families (catalog.ts has their files; fontconfig.ts ranks them as fontconfig does). */
export type FamilyId =
  | "Carlito"
  | "Caladea"
  | "Arimo"
  | "Tinos"
  | "Cousine"
  | "NotoSans"
  | "NotoSerif"
  | "NotoSansHebrew"
  | "NotoSansArabic"
  | "NotoSansSymbols"
  | "NotoSansSymbols2"
  | "NotoSansMono"
  | "DejaVuSans"
  | "DejaVuSerif"
  | "DejaVuSansMono"
  | "DroidSansFallback"
  | "OpenSymbol";

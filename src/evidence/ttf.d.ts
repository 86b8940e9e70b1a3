// TrueType fonts imported as wrangler Data modules (see fonts.ts).
declare module "*.ttf" {
  const data: ArrayBuffer;
  export default data;
}

import { describe, expect, it } from "vitest";
import { nativeDigitsOfText } from "./label-language";
import { scriptClass } from "./script-class";
import { fullWidthDigits, hasNativeDigits } from "./number-format";

describe("label language", () => {
  it("classes characters as LibreOffice's break iterator does", () => {
    const classes = (s: string) => [...s].map((c) => scriptClass(c.codePointAt(0)!));
    expect(classes("a1(\t")).toEqual(["latin", "latin", "latin", "latin"]);
    expect(classes(" \u00a0—…Ⅻ")).toEqual(["weak", "weak", "weak", "weak", "weak"]);
    expect(classes("あア漢한「Ａ")).toEqual(["asian", "asian", "asian", "asian", "asian", "asian"]);
    expect(classes("שمक")).toEqual(["complex", "complex", "complex"]);
    expect(classes("Жα")).toEqual(["latin", "latin"]);
  });

  it("takes the language of the first character that is not weak", () => {
    const langs = { latin: "en-US", eastAsia: "ja-JP" };
    expect(nativeDigitsOfText(" こ", langs)).toBe(true);
    expect(nativeDigitsOfText("1こ", langs)).toBe(false);
    expect(nativeDigitsOfText(" — ", langs)).toBeUndefined();
    // Unset languages: English for Latin, simplified Chinese for East Asian text.
    expect(nativeDigitsOfText("x", {})).toBe(false);
    expect(nativeDigitsOfText("漢", {})).toBe(true);
  });

  it("knows which languages have native digits", () => {
    expect(["ja-JP", "zh-TW", "ko", "ar-SA", "he-IL", "fa-IR", "hi-IN", "th_TH"].every(hasNativeDigits)).toBe(true);
    expect(["en-US", "ru-RU", "de", "el-GR"].some(hasNativeDigits)).toBe(false);
    expect(fullWidthDigits("第12章")).toBe("第１２章");
  });
});

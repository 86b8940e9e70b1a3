/**
 * The fields of an annotate request as the engine sees them, and the rules for their values
 * (interface.md, POST /v1/annotate). Used by the HTTP schema (400 with a path) and by the engine.
 */
import { LIMITS } from "../limits";
import { isNumericValue, parseCheckbox, parseIsoDate } from "./values";

export const FIELD_TYPES = ["text", "date", "number", "checkbox", "image", "signature", "table"] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FieldOptions {
  dimensions?: { width?: number | string; height?: number | string };
  format?: string;
  decimals?: number | string;
  keepTextNodeStyles?: boolean;
  bottomLabel?: { text?: string | null; [k: string]: unknown };
  [k: string]: unknown;
}

export interface TemplateField {
  id?: string;
  group?: string;
  type: FieldType;
  value?: unknown;
  options?: FieldOptions;
}

export type ImageSource = { kind: "data"; text: string } | { kind: "url"; url: string } | { kind: "typed" };

/**
 * Where an image or signature value comes from: a `data:` URI, a URL, plain base64 (images), or
 * typed text (signatures).
 */
export function imageSource(
  type: FieldType,
  value: unknown,
  isPreDecoded: (v: string) => boolean = () => false,
): ImageSource {
  // A large data: URI arrives already decoded by the HTTP edge, as a token.
  if (typeof value === "string" && isPreDecoded(value)) return { kind: "data", text: value };
  const v = typeof value === "string" ? value.trim() : "";
  if (/^data:/i.test(v)) return { kind: "data", text: v };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) return { kind: "url", url: v };
  if (type === "image") return { kind: "data", text: v };
  return { kind: "typed" };
}

/** A numeric option (number or numeric string) as a number, or undefined. */
export function numericOption(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && isNumericValue(v)) return Number(v);
  return undefined;
}

/** What is wrong with a field's value for its type, or null. */
export function valueProblem(
  type: FieldType,
  value: unknown,
  options: FieldOptions | undefined,
): { path: string; message: string } | null {
  const tooLong = (s: string) => s.length > LIMITS.docx.maxValueChars;
  switch (type) {
    case "text":
      if (value === null || value === undefined || typeof value === "number" || typeof value === "boolean") return null;
      if (typeof value !== "string")
        return { path: "value", message: "A text value is a string (numbers, booleans and null are accepted)" };
      return tooLong(value)
        ? { path: "value", message: `A text value has at most ${LIMITS.docx.maxValueChars} characters` }
        : null;
    case "date":
      if (typeof value !== "string" || !parseIsoDate(value))
        return { path: "value", message: "A date value is an ISO 8601 date or date-time, e.g. 2025-05-05" };
      return null;
    case "number": {
      if (!isNumericValue(value)) return { path: "value", message: "A number value is a number or a numeric string" };
      const d = options?.decimals;
      if (d !== undefined) {
        const n = numericOption(d);
        if (n === undefined || !Number.isInteger(n) || n < 0 || n > 20)
          return { path: "options.decimals", message: "decimals is an integer from 0 to 20" };
      }
      return null;
    }
    case "checkbox":
      return parseCheckbox(value) === null
        ? { path: "value", message: 'A checkbox value is true, false, "true" or "false"' }
        : null;
    case "image":
    case "signature":
      if (typeof value !== "string" || !value.trim()) {
        return {
          path: "value",
          message:
            type === "image"
              ? "An image value is a data: URI or a URL"
              : "A signature value is an image (data: URI or URL) or typed text",
        };
      }
      return tooLong(value) && imageSource(type, value).kind === "typed"
        ? { path: "value", message: "The typed signature is too long" }
        : null;
    case "table": {
      if (!Array.isArray(value))
        return { path: "value", message: "A table value is an array of rows, each an array of cell strings" };
      if (value.length > LIMITS.docx.maxTableRows)
        return { path: "value", message: `A table value has at most ${LIMITS.docx.maxTableRows} rows` };
      for (let i = 0; i < value.length; i++) {
        const row = value[i] as unknown;
        if (!Array.isArray(row)) return { path: `value.${i}`, message: "Each table row is an array of cell strings" };
        for (let j = 0; j < row.length; j++) {
          const cell = row[j] as unknown;
          if (!(cell === null || typeof cell === "string" || typeof cell === "number" || typeof cell === "boolean")) {
            return {
              path: `value.${i}.${j}`,
              message: "A table cell is a string (numbers, booleans and null are accepted)",
            };
          }
          if (typeof cell === "string" && tooLong(cell))
            return { path: `value.${i}.${j}`, message: "The cell text is too long" };
        }
      }
      return null;
    }
  }
}

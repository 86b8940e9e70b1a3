import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BEGIN, END, limitEntries, limitsTable, PAGE } from "../../scripts/limits-table";

const page = readFileSync(new URL(`../../${PAGE}`, import.meta.url), "utf8");

describe("the limits table of docs/limits.md", () => {
  it("is the table generated from src/limits.ts (run npm run limits:docs)", () => {
    const block = page.slice(page.indexOf(BEGIN), page.indexOf(END) + END.length);
    expect(block).toBe(limitsTable());
  });

  it("names every limit, and each with its value", () => {
    const entries = limitEntries();
    expect(entries.length).toBeGreaterThan(40);
    for (const { name } of entries) expect(page).toContain(`| \`${name}\` |`);
    // Entries everyone relies on are there with the interface's defaults.
    expect(page).toMatch(/\| `maxBodyBytes` \| 40 MiB \| env `MAX_BODY_BYTES` \|/);
    expect(page).toMatch(/\| `maxDocumentBytes` \| 25 MiB \| env `MAX_DOCUMENT_BYTES` \|/);
  });
});

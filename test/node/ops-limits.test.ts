import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BEGIN, END, limitEntries, limitsTable } from "../../scripts/limits-table";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

describe("README Limits table", () => {
  it("is the table generated from src/limits.ts (run npm run limits:readme)", () => {
    const block = readme.slice(readme.indexOf(BEGIN), readme.indexOf(END) + END.length);
    expect(block).toBe(limitsTable());
  });

  it("names every limit, and each with its value", () => {
    const entries = limitEntries();
    expect(entries.length).toBeGreaterThan(40);
    for (const { name } of entries) expect(readme).toContain(`| \`${name}\` |`);
    // Entries everyone relies on are there with the interface's defaults.
    expect(readme).toMatch(/\| `maxBodyBytes` \| 40 MiB \| env `MAX_BODY_BYTES` \|/);
    expect(readme).toMatch(/\| `maxDocumentBytes` \| 25 MiB \| env `MAX_DOCUMENT_BYTES` \|/);
  });
});

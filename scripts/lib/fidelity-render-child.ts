/**
 * Child process of the fidelity harness: renders DOCX files with Signet, one request at a time,
 * so a renderer that hangs or exhausts memory costs one document, not the whole run.
 * Request: { path }. Reply: { pdf, ms, maxRssKb } or { error }. Also used by bench/render.ts to
 * render under a V8 heap cap.
 */
import { readFileSync } from "node:fs";
import type { FontSource } from "../../src/render/fonts/types";

type Render = (docx: Uint8Array, opts: { fonts: FontSource }) => Promise<Uint8Array>;
let engine: Promise<{ render: Render; fonts: FontSource }> | undefined;

process.on("message", async (msg: { path: string }) => {
  try {
    // Imported lazily: a renderer that does not load yet is reported per document.
    engine ??= (async () => ({
      render: (await import("../../src/render/index")).renderDocxToPdf,
      fonts: (await import("./node-font-source")).nodeFontSource(),
    }))();
    const { render, fonts } = await engine;
    const docx = new Uint8Array(readFileSync(msg.path));
    const t = performance.now();
    const pdf = await render(docx, { fonts });
    process.send!({ pdf, ms: performance.now() - t, maxRssKb: process.resourceUsage().maxRSS });
  } catch (e) {
    const err = e as Error & { code?: string };
    process.send!({ error: `${err.code ? `[${err.code}] ` : ""}${err.name}: ${err.message}`.slice(0, 300) });
  }
});

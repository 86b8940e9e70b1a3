/**
 * Annotate benchmark: a typical contract template (a few pages of clauses, 10 fields, one picture).
 *
 * - HTTP: a Node client → `wrangler dev` → POST /v1/annotate (workerd), warm, ≥ 30 runs, median / p95.
 * - Engine: Signet's DOCX engine alone in Node, beside docxtemplater (PizZip, 10 `{tags}`; its image
 *   module is commercial, so the picture tag gets text) and easy-template-x (10 tags, the picture
 *   included), filling equivalent templates in the same process.
 * - XML layer: the reason for our own tokenizer: scanning the largest corpus document.xml for
 *   controls, beside a DOM parse + serialize with @xmldom/xmldom (what DOM-based fillers do).
 *
 * Run: `npx tsx bench/annotate.ts` (BENCH_RUNS=n to change the run count).
 */
import { readFileSync } from "node:fs";
import Docxtemplater from "docxtemplater";
import PizZip from "pizzip";
import { MimeType, TemplateHandler } from "easy-template-x";
import { DOMParser, XMLSerializer } from "@xmldom/xmldom";
import { scanControls } from "../src/docx/controls";
import type { TemplateField } from "../src/docx/fields";
import { readImageInfo } from "../src/docx/images";
import { DocxTemplate } from "../src/docx/template";
import {
  templateDocx,
  para,
  text,
  wordCheckbox,
  wordDate,
  wordPicture,
  wordText,
} from "../test/support/docx-templates";
import { dataUri, makePng } from "../test/support/png-images";
import { startService } from "../test/node/support/service";
import { measure, ms, type Timing } from "./stats";

const RUNS = Math.max(30, Number(process.env.BENCH_RUNS ?? 30));
const CORPUS = new URL("../../shared/corpus/docx/", import.meta.url).pathname;

const CLAUSE =
  "The Supplier shall provide the Services described in Schedule 1 with reasonable skill and care, in accordance with good industry practice and all applicable laws. " +
  "Either party may terminate this Agreement by giving not less than thirty days' written notice to the other party.";

/** The same contract twice: with content controls (Signet) and with {tags} (docxtemplater, easy-template-x). */
function contract(kind: "controls" | "tags"): Uint8Array {
  const slot = (tag: string, control: string) => (kind === "controls" ? control : text(`{${tag}}`));
  const body: string[] = [
    para(text("SERVICES AGREEMENT")),
    para(
      text("This agreement is made between "),
      slot("client_name", wordText({ tag: "client_name", placeholder: true })),
      text(" of "),
      slot("client_address", wordText({ tag: "client_address" })),
    ),
    para(
      text("and "),
      slot("supplier_name", wordText({ tag: "supplier_name" })),
      text(", represented by "),
      slot("supplier_rep", wordText({ tag: "supplier_rep" })),
    ),
    para(text("Effective date: "), slot("effective_date", wordDate({ tag: "effective_date", format: "MMMM d, yyyy" }))),
    para(text("Fee: "), slot("fee", wordText({ tag: "fee" })), text(" EUR per month.")),
    para(
      text("Reference: "),
      slot("reference", wordText({ tag: "reference" })),
      text("  Contact: "),
      slot("email", wordText({ tag: "email" })),
    ),
  ];
  for (let i = 1; i <= 60; i++) body.push(para(text(`${i}. ${CLAUSE}`)));
  body.push(para(text("Accepted: "), slot("accepted", wordCheckbox({ tag: "accepted" }))));
  body.push(para(text("Signature: "), kind === "controls" ? wordPicture({ tag: "signature" }) : text("{signature}")));
  return templateDocx({
    body: body.join(""),
    header: para(text("Services Agreement")),
    footer: para(text("Confidential")),
  });
}

const signaturePng = makePng(300, 100, [10, 10, 60]);
const values = {
  client_name: "Ada Lovelace",
  client_address: "12 St James's Square, London",
  supplier_name: "Analytical Engines Ltd",
  supplier_rep: "Charles Babbage",
  effective_date: "2025-05-05",
  fee: "1250.00",
  reference: "AE-2025-042",
  email: "ada@example.com",
  accepted: true,
};

const signetFields: TemplateField[] = [
  ...["client_name", "client_address", "supplier_name", "supplier_rep", "reference", "email"].map((id) => ({
    id,
    type: "text" as const,
    value: values[id as keyof typeof values],
  })),
  { id: "effective_date", type: "date", value: values.effective_date },
  { id: "fee", type: "number", value: values.fee, options: { decimals: 2 } },
  { id: "accepted", type: "checkbox", value: true },
  { id: "signature", type: "signature", value: dataUri(signaturePng), options: { dimensions: { width: 150 } } },
];

const withControls = contract("controls");
const withTags = contract("tags");

function signetEngine(): number {
  const t = DocxTemplate.open(withControls);
  const b64 = (signetFields[9]!.value as string).split(",")[1]!;
  const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const { length } = t.fill(signetFields, new Map([[9, { key: "sig", bytes, info: readImageInfo(bytes) }]]));
  return length;
}

function docxtemplaterPeer(): number {
  const doc = new Docxtemplater(new PizZip(withTags), { paragraphLoop: true, linebreaks: true });
  doc.render({
    ...values,
    effective_date: "May 5, 2025",
    accepted: "☒",
    signature: "[signature image: needs the commercial image module]",
  });
  return doc.getZip().generate({ type: "uint8array", compression: "DEFLATE" }).length;
}

async function easyTemplatePeer(): Promise<number> {
  const handler = new TemplateHandler();
  const out = await handler.process(Buffer.from(withTags), {
    ...values,
    effective_date: "May 5, 2025",
    accepted: "☒",
    signature: { _type: "image", source: Buffer.from(signaturePng), format: MimeType.Png, width: 150, height: 50 },
  });
  return out.length;
}

function xmlRows(): string[][] {
  const name = "docx4j__docs__Docx4j_GettingStarted.docx";
  const t = DocxTemplate.open(new Uint8Array(readFileSync(CORPUS + name)));
  const xml = t.parts[0]!.xml;
  const rows: string[][] = [];
  const time = (fn: () => unknown) => {
    for (let i = 0; i < 3; i++) fn();
    const ts: number[] = [];
    for (let i = 0; i < 15; i++) {
      const s = performance.now();
      fn();
      ts.push(performance.now() - s);
    }
    return ts.sort((a, b) => a - b)[7]!;
  };
  const ours = time(() => scanControls(xml, "word/document.xml"));
  const dom = time(() => new XMLSerializer().serializeToString(new DOMParser().parseFromString(xml, "text/xml")));
  const domParse = time(() => new DOMParser().parseFromString(xml, "text/xml"));
  rows.push([`${name} document.xml (${(xml.length / 1024 / 1024).toFixed(1)} MB)`, ms(ours), ms(domParse), ms(dom)]);
  return rows;
}

const row = (name: string, t: Timing) => `| ${name} | ${ms(t.median)} | ${ms(t.p95)} |`;

console.log(`Annotate benchmark, ${RUNS} runs each after warm-up, ${new Date().toISOString()}\n`);
console.log(
  `Template: ${(withControls.length / 1024).toFixed(1)} KB DOCX, ${DocxTemplate.open(withControls).controls.length} content controls, 10 fields (6 text, date, number, checkbox, signature picture).\n`,
);

const engine = await measure(RUNS, async () => signetEngine());
const dxt = await measure(RUNS, async () => docxtemplaterPeer());
const etx = await measure(RUNS, () => easyTemplatePeer());

const svc = await startService({ RATE_LIMITS: "off" }); // measure the service, not its rate limits
let http: Timing;
try {
  const body = JSON.stringify({
    document: { base64: Buffer.from(withControls).toString("base64") },
    fields: signetFields,
  });
  http = await measure(RUNS, async () => {
    const res = await fetch(`${svc.baseUrl}/v1/annotate`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${svc.apiKey}` },
      body,
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
    const json = (await res.json()) as { unmatched: unknown[] };
    if (json.unmatched.length) throw new Error(`unmatched: ${JSON.stringify(json.unmatched)}`);
  });
} finally {
  await svc.stop();
}

console.log("| run | median | p95 |");
console.log("|---|---|---|");
console.log(row("Signet HTTP (wrangler dev, workerd: JSON in, base64 data URI out)", http));
console.log(row("Signet engine (Node)", engine));
console.log(row("docxtemplater 3 + PizZip (Node; picture as text)", dxt));
console.log(row("easy-template-x 7 (Node; picture included)", etx));
console.log(
  `\nEngine vs docxtemplater: ${(dxt.median / engine.median).toFixed(1)}x; vs easy-template-x: ${(etx.median / engine.median).toFixed(1)}x.`,
);

console.log("\nXML layer (median of 15):\n");
console.log("| part | Signet tokenizer: find controls | @xmldom/xmldom parse | parse + serialize |");
console.log("|---|---|---|---|");
for (const r of xmlRows()) console.log(`| ${r.join(" | ")} |`);

/**
 * The render benchmark's documents, generated with test/support/docx-builder (deterministic):
 * a contract of about 3 A4 pages and a report of about 30. Both have Heading styles, numbered
 * clauses (two levels), a fee table with a repeated header row, a header, and a footer with
 * "Page N of M" fields; the contract has a content control `client_name` for annotate.
 */
import {
  A4,
  buildDocx,
  DEFAULT_STYLES,
  field,
  numbering,
  numberingPart,
  p,
  r,
  sectPr,
  table,
  type ParagraphProps,
} from "../test/support/docx-builder";

const CLAUSE = [
  "The Supplier shall provide the Services described in Schedule 1 with reasonable skill and care, in accordance with good industry practice and all applicable laws and regulations.",
  "The Customer shall pay each undisputed invoice within thirty (30) days of receipt; late payments bear interest at two per cent above the base rate of the central bank.",
  "Either party may terminate this Agreement by giving not less than ninety days' written notice to the other party, without prejudice to rights accrued before termination.",
  "Neither party shall be liable for any indirect or consequential loss, loss of profit, revenue or goodwill, however arising, even if it was foreseeable.",
];
const clauseText = (i: number) => CLAUSE[i % CLAUSE.length]!;

const clauses = numbering({
  numId: 1,
  levels: [
    { fmt: "decimal", text: "%1.", left: 432, hanging: 432 },
    { fmt: "decimal", text: "%1.%2", left: 1008, hanging: 576 },
  ],
});

/** A plain-text content control as Word writes it (filled by the HTTP run). */
const control = (tag: string, placeholder: string) =>
  `<w:sdt><w:sdtPr><w:tag w:val="${tag}"/><w:showingPlcHdr/><w:text/></w:sdtPr><w:sdtContent>${r(placeholder, { color: "808080" })}</w:sdtContent></w:sdt>`;

const pageFooter = p(["Page ", field("PAGE"), " of ", field("NUMPAGES")], { style: "Footer", jc: "center" });

function feeTable(rows: number): string {
  const body = Array.from({ length: rows }, (_, i) => [
    `Service line ${i + 1}`,
    `${(i % 5) + 1}`,
    `${(1250 + i * 75).toFixed(2)} EUR`,
  ]);
  return table([["Item", "Quantity", "Monthly fee"], ...body], { widths: [4680, 1800, 2880], headerRows: 1 });
}

export function contract(): Uint8Array {
  const body: string[] = [
    p("SERVICES AGREEMENT", { style: "Title", jc: "center" }),
    p(
      [
        "This Agreement is made between ",
        control("client_name", "Click or tap here to enter text."),
        " (the Customer) and Analytical Engines Ltd (the Supplier).",
      ],
      {
        jc: "both",
      },
    ),
  ];
  for (let s = 0; s < 4; s++) {
    body.push(p(["Definitions", "Services", "Fees and Payment", "Term and Termination"][s]!, { style: "Heading1" }));
    for (let c = 0; c < 4; c++) {
      body.push(p(clauseText(s + c), { numId: 1, jc: "both" }));
      body.push(p(clauseText(s + c + 1), { numId: 1, ilvl: 1, jc: "both" }));
    }
    if (s === 2) body.push(feeTable(6), p(""));
  }
  body.push(p("Signatures", { style: "Heading1" }));
  body.push(
    table(
      [
        ["For the Customer", "For the Supplier"],
        ["\n\nName:\nDate:", "\n\nName:\nDate:"],
      ],
      { widths: [4680, 4680] },
    ),
  );
  body.push(sectPr({ ...A4, headers: { default: "rIdH" }, footers: { default: "rIdF" } }));
  return buildDocx({
    title: "Services Agreement",
    body: body.join(""),
    numbering: numberingPart(clauses),
    headers: {
      rIdH: p("Services Agreement: confidential", {
        style: "Header",
        jc: "right",
        run: { sizePt: 9, color: "595959" },
      }),
    },
    footers: { rIdF: pageFooter },
  });
}

export function report(): Uint8Array {
  const body: string[] = [
    p("Annual Operations Report", { style: "Title" }),
    p("Prepared for the board of directors", { run: { i: true } }),
  ];
  const chapter: ParagraphProps = { style: "Heading1", pageBreakBefore: true };
  for (let ch = 1; ch <= 10; ch++) {
    body.push(p(`Chapter ${ch}: Operations review`, ch === 1 ? { style: "Heading1" } : chapter));
    for (let sec = 1; sec <= 3; sec++) {
      body.push(p(`${ch}.${sec} Findings`, { style: "Heading2" }));
      for (let k = 0; k < 5; k++) body.push(p(`${clauseText(ch + sec + k)} ${clauseText(ch + k + 2)}`, { jc: "both" }));
      body.push(p(clauseText(ch + sec), { numId: 1 }), p(clauseText(ch + sec + 1), { numId: 1, ilvl: 1 }));
    }
    body.push(feeTable(8));
    body.push(p(""));
  }
  body.push(sectPr({ ...A4, headers: { default: "rIdH" }, footers: { default: "rIdF" } }));
  return buildDocx({
    title: "Annual Operations Report",
    body: body.join(""),
    styles: DEFAULT_STYLES,
    numbering: numberingPart(clauses),
    headers: { rIdH: p("Annual Operations Report", { style: "Header", run: { sizePt: 9 } }) },
    footers: { rIdF: pageFooter },
  });
}

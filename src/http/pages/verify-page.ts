/**
 * `GET /verify`: the page where a person checks a signed PDF. Plain HTML, CSS
 * and JavaScript (no framework, no CDN, no build step). The browser sends the
 * file to this service's `POST /v1/verify` only, and reads `#ref=` /
 * `#sha256=` (the certificate page's QR code) to show this service's record.
 * Every value from a document or a response is put in the page as text
 * (textContent), never as HTML. Inline script and style carry the per-request
 * CSP nonce; there are no inline `style` attributes.
 */

export interface VerifyPageOptions {
  /** CSP nonce for the inline style and script of this response. */
  nonce: string;
  /** The service's document size cap (MAX_DOCUMENT_BYTES), checked before sending. */
  maxDocumentBytes: number;
}

const CSS = `
:root{--fg:#1c2430;--muted:#556070;--line:#dfe4ec;--bg:#f5f7fa;--card:#fff;--accent:#1d4f91;
--ok:#17663a;--ok-bg:#e7f4ec;--ok-line:#9fd1b2;--bad:#a1261c;--bad-bg:#fcecea;--bad-line:#eeb0aa;
--warn:#7a4f00;--warn-bg:#fff5dc;--warn-line:#e9cf8c;--info:#1d4f91;--info-bg:#eaf1fb;--info-line:#b4cbec}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
.wrap{max-width:46rem;margin:0 auto;padding:0 16px}
.top{background:#17304f;color:#fff}
.top .wrap{display:flex;align-items:baseline;gap:12px;padding-top:14px;padding-bottom:14px}
.brand{color:#fff;font-weight:700;font-size:18px;text-decoration:none}
.top span{color:#c9d6e8;font-size:14px}
h1{font-size:26px;line-height:1.25;margin:28px 0 6px}
.lead{margin:0 0 20px;color:var(--muted)}
h2{font-size:19px;line-height:1.3;margin:0 0 6px}
h3{font-size:16px;margin:0}
.panel{border:1px solid var(--line);border-radius:12px;background:var(--card);padding:16px 18px;margin:0 0 16px}
.drop{border:2px dashed #9fb0c8;border-radius:14px;background:#fbfcfe;padding:26px 18px;text-align:center;margin:0 0 12px;transition:background .15s,border-color .15s}
.drop.over{border-color:var(--accent);background:var(--info-bg)}
.drop p{margin:4px 0}
.drop .big{font-size:18px;font-weight:600}
.btn{display:inline-block;margin:10px 0 4px;padding:10px 18px;border-radius:8px;background:var(--accent);color:#fff;font-weight:600;cursor:pointer;border:0;font-size:16px}
.btn:hover{background:#163f75}
.vh{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
#file:focus-visible+label,.btn:focus-visible,summary:focus-visible,input:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.privacy{display:flex;gap:10px;align-items:flex-start;font-size:14px;color:var(--muted);margin:0 0 22px;padding:0 4px}
.privacy svg{flex:none;margin-top:2px}
#status{min-height:1.5em;margin:0 0 12px;color:var(--muted)}
.spin{display:inline-block;width:14px;height:14px;border:2px solid #9fb0c8;border-top-color:var(--accent);border-radius:50%;animation:r .8s linear infinite;vertical-align:-2px;margin-right:8px}
@keyframes r{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spin{animation:none}.drop{transition:none}}
.box{display:flex;gap:14px;align-items:flex-start;border:1px solid;border-radius:12px;padding:16px 18px;margin:0 0 16px}
.box:focus{outline:none}.box:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.box>div{min-width:0;overflow-wrap:anywhere}
.box p{margin:4px 0 0}
.box .ico{flex:none;width:34px;height:34px;border-radius:50%;display:flex;align-items:center;justify-content:center;font-weight:700;font-size:19px;color:#fff}
.ok{background:var(--ok-bg);border-color:var(--ok-line)}.ok .ico{background:var(--ok)}.ok h2{color:var(--ok)}
.bad{background:var(--bad-bg);border-color:var(--bad-line)}.bad .ico{background:var(--bad)}.bad h2{color:var(--bad)}
.warn{background:var(--warn-bg);border-color:var(--warn-line)}.warn .ico{background:var(--warn)}.warn h2{color:var(--warn)}
.info{background:var(--info-bg);border-color:var(--info-line)}.info .ico{background:var(--info)}.info h2{color:var(--info)}
.small{font-size:14px;color:var(--muted)}
.box .small{color:inherit;opacity:.92}
.sig{border:1px solid var(--line);border-left-width:6px;border-radius:12px;background:var(--card);padding:14px 18px;margin:0 0 14px}
.sig.good{border-left-color:var(--ok)}.sig.poor{border-left-color:var(--bad)}
.sig-head{display:flex;flex-wrap:wrap;gap:6px 12px;align-items:baseline;margin:0 0 8px}
.pill{display:inline-block;font-size:13px;font-weight:700;padding:2px 10px;border-radius:99px}
.pill.good{background:var(--ok-bg);color:var(--ok)}.pill.poor{background:var(--bad-bg);color:var(--bad)}
.who{font-size:18px;font-weight:700}.email{color:var(--muted);overflow-wrap:anywhere}
dl{display:grid;grid-template-columns:minmax(8rem,11rem) 1fr;gap:6px 14px;margin:8px 0}
dt{color:var(--muted);font-size:14px;padding-top:1px}dd{margin:0;overflow-wrap:anywhere}
dd.alert{color:var(--bad);font-weight:600}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13.5px;word-break:break-all}
ul.problems{margin:6px 0 0;padding-left:20px}
details{margin:10px 0 0}
summary{cursor:pointer;color:var(--accent);font-weight:600}
ol.timeline{list-style:none;margin:10px 0 0;padding:0 0 0 18px;border-left:2px solid var(--line)}
ol.timeline li{position:relative;margin:0 0 10px;padding-left:6px}
ol.timeline li::before{content:"";position:absolute;left:-26px;top:6px;width:12px;height:12px;border-radius:50%;background:#fff;border:2px solid #8da2bf}
ol.timeline li.submit::before{background:var(--ok);border-color:var(--ok)}
.t-time{font-size:13.5px;color:var(--muted)}
.t-what{font-weight:600}
.t-detail{font-size:14px;color:var(--muted);overflow-wrap:anywhere}
form.lookup{display:flex;flex-wrap:wrap;gap:8px;margin-top:10px}
form.lookup label{flex-basis:100%;font-size:14px;color:var(--muted)}
form.lookup input{flex:1 1 14rem;min-width:0;padding:9px 10px;border:1px solid #8d9bb0;border-radius:8px;font:inherit;font-size:15px}
form.lookup .btn{margin:0}
.strong{font-weight:600}
h2.section{margin:24px 0 10px}
.help h2{font-size:17px}.help p{margin:6px 0}
footer{margin:30px 0 40px;font-size:14px;color:var(--muted)}
@media (max-width:520px){h1{font-size:22px}dl{grid-template-columns:1fr;gap:0 0}dt{margin-top:8px}.box{padding:14px}.sig{padding:12px 14px}}
`;

const SCRIPT = `
"use strict";
const MAX = Number(document.body.dataset.maxBytes) || 26214400;
const $ = (id) => document.getElementById(id);
const el = (tag, attrs, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k !== null && k !== undefined && k !== false) e.append(k);
  return e;
};
const state = { lookup: null, file: null, report: null, sha: null };

// ---------- formatting
const mb = (n) => (n / 1048576).toFixed(n < 10485760 ? 1 : 0) + " MB";
const size = (n) => n < 1024 ? n + " bytes" : n < 1048576 ? Math.round(n / 1024) + " KB" : mb(n);
function when(iso) {
  if (!iso) return "unknown time";
  const d = new Date(iso);
  if (isNaN(d)) return String(iso);
  const local = d.toLocaleString(undefined, { dateStyle: "long", timeStyle: "short" });
  if (d.getTimezoneOffset() === 0) return local + " UTC";
  return local + " (" + d.toISOString().slice(0, 16).replace("T", " ") + " UTC)";
}
const shortTime = (ms) => {
  const d = new Date(ms);
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
};
const cn = (dn) => { const m = /(?:^|[,/]\\s*)CN=([^,/]+)/.exec(dn || ""); return m ? m[1].trim() : (dn || "unknown"); };
const plural = (n, one, many) => n + " " + (n === 1 ? one : many);
const names = (list) => list.length <= 1 ? list.join("") : list.slice(0, -1).join(", ") + " and " + list[list.length - 1];

// ---------- boxes
function box(kind, title, lines, id) {
  const ico = { ok: "\\u2713", bad: "\\u2715", warn: "!", info: "i" }[kind];
  const body = el("div", {}, el("h2", { text: title }));
  for (const l of lines) if (l) body.append(typeof l === "string" ? el("p", { text: l }) : l);
  return el("div", { class: "box " + kind, id: id || null, tabindex: id ? "-1" : null }, el("span", { class: "ico", "aria-hidden": "true", text: ico }), body);
}
function dl(rows) {
  const d = el("dl");
  for (const r of rows) if (r) d.append(el("dt", { text: r[0] }), el("dd", { class: r[2] || null, text: r[1] }));
  return d;
}
function say(text, busy) {
  const s = $("status");
  s.textContent = "";
  if (busy) s.append(el("span", { class: "spin", "aria-hidden": "true" }));
  if (text) s.append(text);
}

// ---------- errors from the service, in words
async function problemOf(res) {
  try { return await res.json(); } catch { return {}; }
}
function explain(status, p) {
  const code = p && p.code;
  if (status === 413 || code === "document_too_large") return ["This file is too big to check", "The service checks PDF files up to " + mb(MAX) + "."];
  if (code === "unsupported_document_type" || status === 415) return ["This file is not a PDF", "Only PDF files can be checked here. Choose the PDF you received."];
  if (code === "pdf_encrypted") return ["This PDF is password-protected", "It cannot be checked while it is locked with a password. Ask the sender for an unlocked copy."];
  if (code === "pdf_unparseable") return ["This PDF could not be read", "The file is damaged or not a real PDF. Try downloading it again from where you got it."];
  if (code === "pdf_too_complex") return ["This PDF is too complex to check here", "It has more signatures, revisions or structure than the service checks in one go. Check it with a desktop PDF reader, or ask the sender for a simpler copy."];
  if (status === 429) return ["Too many checks in a short time", "Please wait a minute and try again."];
  if (status === 401) return ["This service checks documents for its account holders only", "Checking here needs an API key. Ask the organisation that sent you the document."];
  if (status === 404) return ["Checking is not available here", "This address does not offer document checks."];
  return ["Something went wrong on our side", "The document could not be checked just now. Please try again in a moment." + (p && p.requestId ? " (Reference for support: " + p.requestId + ")" : "")];
}

// ---------- the file
function sniff(head) {
  const s = String.fromCharCode.apply(null, head);
  if (s.indexOf("%PDF-") >= 0) return null;
  if (head[0] === 0x89 && s.slice(1, 4) === "PNG") return ["This is a PNG picture, not a PDF", "A picture or scan of a document has no digital signature to check. Choose the PDF file you received."];
  if (head[0] === 0xff && head[1] === 0xd8) return ["This is a JPEG picture, not a PDF", "A picture or scan of a document has no digital signature to check. Choose the PDF file you received."];
  if (s.slice(0, 2) === "PK") return ["This is a Word or ZIP file, not a PDF", "Only signed PDF files can be checked here. Choose the PDF you received."];
  return ["This file is not a PDF", "Only PDF files can be checked here. Choose the PDF you received."];
}
function readDataUrl(file) {
  return new Promise((ok, fail) => { const r = new FileReader(); r.onload = () => ok(r.result); r.onerror = () => fail(r.error); r.readAsDataURL(file); });
}
async function localSha256(file) {
  if (!(window.crypto && crypto.subtle)) return null;
  try {
    const d = new Uint8Array(await crypto.subtle.digest("SHA-256", await file.arrayBuffer()));
    return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
  } catch { return null; }
}

async function check(file) {
  const out = $("result");
  out.hidden = false;
  out.textContent = "";
  state.file = file;
  state.report = null;
  const fail = (t) => { say(""); out.append(box("warn", t[0], [t[1]], "verdict")); $("verdict").focus(); };
  if (!file) return;
  if (file.size === 0) return fail(["This file is empty", "Choose the PDF you received."]);
  if (file.size > MAX) return fail(["This file is too big to check", "It is " + mb(file.size) + "; the service checks PDF files up to " + mb(MAX) + "."]);
  let head;
  try { head = new Uint8Array(await file.slice(0, 1024).arrayBuffer()); } catch { return fail(["This file could not be opened", "Your browser could not read it. Try choosing it again."]); }
  const notPdf = sniff(head);
  if (notPdf) return fail(notPdf);

  say("Checking \\u201c" + file.name + "\\u201d\\u2026", true);
  let res, report;
  try {
    const [data, sha] = await Promise.all([readDataUrl(file), localSha256(file)]);
    state.sha = sha;
    const b64 = data.slice(data.indexOf(",") + 1);
    res = await fetch("/v1/verify", { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"document":{"base64":"data:application/pdf;base64,' + b64 + '"}}' });
  } catch {
    return fail(["Could not reach the service", "Check your internet connection and try again. Your file was not checked."]);
  }
  if (!res.ok) return fail(explain(res.status, await problemOf(res)));
  try { report = await res.json(); } catch { return fail(explain(500, {})); }
  say("");
  state.report = report;
  render(report, file);
}

// ---------- the report
const COVERAGE = {
  entire_file: ["The whole file"],
  entire_revision: ["The whole document as it was when signed"],
  partial: ["Only part of the file", "alert"],
  unclear: ["Cannot tell what it covers", "alert"],
};
const CHANGES = {
  none: ["Nothing"],
  signatures: ["Only later signatures or time-stamps were added"],
  form_filling: ["Form fields were filled in"],
  appended_pages: ["Pages or attached files were added after signing; the signed pages are untouched, but this counts as a change to what was signed", "alert"],
  annotations: ["Comments or markup were added", "alert"],
  other: ["The document\\u2019s content was changed", "alert"],
};
function sigGood(s) {
  return s.intact && s.signatureValid === true && s.trusted && (s.coverage === "entire_file" || s.coverage === "entire_revision") &&
    !(s.problems || []).some((p) => p.severity === "error");
}

function verdict(r) {
  const people = r.signers.filter((s) => s.kind !== "timestamp").map((s) => s.name || s.email).filter(Boolean);
  if (r.valid) {
    return box("ok", people.length ? "Valid: signed and not altered" : "Valid: time-stamped and not altered", [
      (people.length ? "Signed by " + names(people) + ". " : "") + "Nothing in the document was changed after signing, and the signature" + (r.signers.length > 1 ? "s were" : " was") + " made with a certificate this service trusts.",
      el("p", { class: "small", text: "Details: " + r.reason }),
    ], "verdict");
  }
  if (!r.signers.length) {
    return box("warn", "No digital signature in this PDF", [
      "This PDF does not carry a digital signature, so there is nothing to check. A signature drawn or scanned onto the page cannot be checked here.",
    ], "verdict");
  }
  return box("bad", "Not valid: do not rely on this copy", [
    r.reason,
    el("p", { class: "small", text: "The file may have been changed after it was signed, or the signature cannot be trusted. Ask the sender for the original file." }),
  ], "verdict");
}

function signatureCard(s, i, total) {
  const good = sigGood(s);
  const isStamp = s.kind === "timestamp";
  const title = isStamp ? "Document time-stamp" : (s.name || "Unknown signer");
  const head = el("div", { class: "sig-head" },
    el("span", { class: "pill " + (good ? "good" : "poor"), text: good ? "\\u2713 Checks out" : "\\u2715 Problem" }),
    el("h3", { class: "who", text: title }),
    !isStamp && s.email ? el("span", { class: "email", text: s.email }) : null);
  const cov = COVERAGE[s.coverage] || [String(s.coverage), "alert"];
  const chg = CHANGES[s.modifications] || [String(s.modifications), "alert"];
  const stamp = s.timestamp;
  const rows = [
    [isStamp ? "Time-stamped" : "Signed", when(s.signedAt)],
    ["Time comes from", s.signedAtSource === "timestamp" ? "An independent time-stamp" + (stamp && stamp.tsa ? " by " + cn(stamp.tsa) : "") : "The signer\\u2019s computer (no independent time-stamp)"],
    ["Certificate issued by", s.certificate ? cn(s.certificate.issuer) : "No certificate found", s.certificate ? null : "alert"],
    ["Trusted by this service", s.trusted ? "Yes" : "No", s.trusted ? null : "alert"],
    ["Signature covers", cov[0], cov[1]],
    s.intact ? ["Changed after signing", chg[0], chg[1]] : ["Changed after signing", "The signed content itself was altered: its fingerprint no longer matches", "alert"],
  ];
  const card = el("section", { class: "sig " + (good ? "good" : "poor"), "aria-label": (total > 1 ? "Signature " + (i + 1) + " of " + total + ": " : "Signature: ") + title }, head, dl(rows));
  const problems = (s.problems || []);
  if (problems.length) {
    const ul = el("ul", { class: "problems" });
    for (const p of problems) ul.append(el("li", { text: (p.severity === "warning" ? "Note: " : "") + p.message }));
    card.append(el("div", { class: "small", text: problems.some((p) => p.severity === "error") ? "What failed:" : "Notes:" }), ul);
  }
  if (Array.isArray(s.auditTrail) && s.auditTrail.length) card.append(timeline(s.auditTrail, good));
  const c = s.certificate || {};
  card.append(el("details", {}, el("summary", { text: "Technical details" }), dl([
    ["Signature field", s.fieldName],
    ["Format", s.subFilter || "unknown"],
    ["Algorithms", (s.digestAlgorithm || "?") + " with " + (s.signatureAlgorithm || "?")],
    ["Signed revision", s.revision === null ? "unknown" : String(s.revision)],
    s.eventId ? ["Signing event", s.eventId] : null,
    c.subject ? ["Certificate subject", c.subject] : null,
    c.issuer ? ["Certificate issuer", c.issuer] : null,
    c.serialNumber ? ["Serial number", c.serialNumber, "mono"] : null,
    c.notBefore ? ["Certificate valid", when(c.notBefore) + " to " + when(c.notAfter)] : null,
    c.sha256 ? ["Certificate SHA-256", c.sha256, "mono"] : null,
    stamp ? ["Time-stamp", when(stamp.time) + (stamp.tsa ? " by " + stamp.tsa : "")] : null,
  ])));
  return card;
}

// ---------- audit trail: time order; consecutive events of one type and field collapse (never "submit")
function fieldOf(e) {
  const d = e && e.data;
  if (!d || typeof d !== "object" || Array.isArray(d)) return null;
  for (const k of ["fieldId", "field", "id"]) {
    if (typeof d[k] === "string") return d[k];
    if (typeof d[k] === "number" && isFinite(d[k])) return String(d[k]);
  }
  return null;
}
function collapse(entries) {
  const keyed = entries.map((e, i) => ({ e, i, t: Date.parse(e && e.timestamp) }));
  keyed.sort((a, b) => (isNaN(a.t) || isNaN(b.t)) ? (isNaN(a.t) === isNaN(b.t) ? a.i - b.i : isNaN(a.t) ? 1 : -1) : (a.t - b.t || a.i - b.i));
  const lines = [];
  let cur = null;
  for (const { e, t } of keyed) {
    const type = typeof e.type === "string" ? e.type : null;
    const field = fieldOf(e);
    if (cur && type !== "submit" && cur.type === type && cur.field === field) { cur.count++; cur.last = e; cur.lastT = t; continue; }
    cur = { type, field, count: 1, first: e, last: e, firstT: t, lastT: t };
    lines.push(cur);
  }
  return lines;
}
const LABELS = { ready: "Opened the document", view: "Viewed the document", open: "Opened the document", scroll: "Scrolled through the document",
  field_change: "Filled in a field", submit: "Signed and submitted", sign: "Signed", consent: "Agreed to sign electronically", download: "Downloaded the document" };
function label(l) {
  if (l.type && LABELS[l.type]) return l.field && l.type === "field_change" ? "Filled in \\u201c" + l.field + "\\u201d" : LABELS[l.type];
  const t = (l.type || "event").replace(/[_-]+/g, " ");
  return t.charAt(0).toUpperCase() + t.slice(1) + (l.field ? " \\u2014 " + l.field : "");
}
function detail(l) {
  const d = l.last && l.last.data;
  const bits = [];
  if (l.count > 1) bits.push(l.type === "field_change" ? plural(l.count, "change", "changes") + " (keystrokes)" : plural(l.count, "time", "times"));
  if (d && typeof d === "object") {
    if (typeof d.value === "boolean") bits.push(d.value ? "checked" : "not checked");
    else if (typeof d.value === "string" || typeof d.value === "number") {
      const v = String(d.value);
      bits.push((l.count > 1 ? "final value: " : "value: ") + "\\u201c" + (v.length > 120 ? v.slice(0, 117) + "\\u2026" : v) + "\\u201d");
    }
    if (typeof d.percent === "number") bits.push("reached " + Math.round(d.percent) + "%");
  }
  return bits.join(" \\u00b7 ");
}
function timeline(entries, trusted) {
  const lines = collapse(entries);
  const ol = el("ol", { class: "timeline" });
  const LIMIT = 300;
  for (const l of lines.slice(0, LIMIT)) {
    const time = isNaN(l.firstT) ? String(l.first.timestamp) : shortTime(l.firstT) + (l.count > 1 && !isNaN(l.lastT) && l.lastT !== l.firstT ? " \\u2013 " + new Date(l.lastT).toLocaleTimeString() : "");
    const iso = isNaN(l.firstT) ? null : new Date(l.firstT).toISOString();
    ol.append(el("li", { class: l.type === "submit" ? "submit" : null },
      el("div", { class: "t-time" }, iso ? el("time", { datetime: iso, text: time }) : time),
      el("div", { class: "t-what", text: label(l) }),
      detail(l) ? el("div", { class: "t-detail", text: detail(l) }) : null));
  }
  if (lines.length > LIMIT) ol.append(el("li", { text: "\\u2026 and " + plural(lines.length - LIMIT, "more step", "more steps") + " (the complete record is inside the PDF)" }));
  const sum = "What happened before signing (" + plural(entries.length, "recorded event", "recorded events") + (lines.length < entries.length ? ", shown as " + plural(lines.length, "step", "steps") : "") + ")";
  const caveat = trusted ? null : el("p", { class: "small", text: "As written in the file. Because this signature failed the check, this record cannot be relied on either." });
  return el("details", { open: lines.length <= 15 }, el("summary", { text: sum }), caveat, ol);
}

function facts(r, file, record) {
  const d = r.document;
  const sha = d.sha256 || state.sha;
  const rows = [
    ["File", file.name],
    ["Size", size(d.sizeBytes)],
    ["Pages", String(d.pages)],
    d.title ? ["Title", d.title] : null,
    ["Signatures", String(d.signatureCount)],
    ["Saved versions inside the file", String(d.revisions)],
    ["PDF version", d.pdfVersion],
    ["SHA-256 fingerprint", sha, "mono"],
  ];
  if (record === "none") rows.push(["This service\\u2019s records", "No record of this exact file. Files signed elsewhere, or changed after signing, are not in the records."]);
  else if (record) rows.push(["This service\\u2019s records", "This exact file was produced by this service on " + when(record.signedAt) + " (signing event " + record.eventId + ")."]);
  return el("section", { class: "panel", "aria-labelledby": "facts-h" }, el("h2", { id: "facts-h", text: "About this file" }), dl(rows));
}

function comparison(r, sha) {
  const L = state.lookup;
  if (!L || !L.found) return null;
  const what = L.kind === "ref" ? "the reference " + L.value : "the fingerprint you opened";
  if (sha === L.found.outputSha256) return box("ok", "Same file as the one recorded", ["Your copy is exactly the document this service signed under " + what + " on " + when(L.found.signedAt) + "."]);
  const within = r.valid && r.signers.some((s) => s.eventId && s.eventId === L.found.eventId);
  if (within) return box("info", "Contains the recorded signature, and was signed again later", ["Your copy is not byte-for-byte the file recorded under " + what + ": it carries that signature plus later ones, and every signature checks out."]);
  return box("warn", "Not the same file as the one recorded", ["Your copy differs from the document this service signed under " + what + ". Compare it with the original, or ask the sender."]);
}

async function render(r, file) {
  const out = $("result");
  out.textContent = "";
  const sha = r.document.sha256 || state.sha;
  let record = null;
  try {
    const res = await fetch("/v1/verify/hash/" + sha);
    if (res.ok) record = await res.json(); else if (res.status === 404) record = "none";
  } catch { /* the record is a bonus; the check stands on its own */ }
  out.append(verdict(r));
  const cmp = comparison(r, sha);
  if (cmp) out.append(cmp);
  if (r.signers.length) {
    out.append(el("h2", { class: "section", text: r.signers.length === 1 ? "The signature" : "The " + r.signers.length + " signatures, oldest first" }));
    r.signers.forEach((s, i) => out.append(signatureCard(s, i, r.signers.length)));
  }
  out.append(facts(r, file, record));
  out.append(el("p", {}, el("button", { class: "btn", type: "button", id: "again", text: "Check another file" })));
  $("again").onclick = () => { $("file").value = ""; $("file").click(); };
  $("verdict").focus();
}

// ---------- #ref= and #sha256= (the certificate page's QR code)
async function lookupFromHash() {
  const p = new URLSearchParams(location.hash.slice(1));
  const panel = $("lookup");
  const raw = (p.get("ref") || p.get("sha256") || "").replace(/[\\s-]+/g, "");
  const kind = p.get("ref") !== null ? "ref" : p.get("sha256") !== null ? "sha256" : null;
  panel.textContent = "";
  state.lookup = null;
  if (!kind) { panel.hidden = true; return; }
  panel.hidden = false;
  const noun = kind === "ref" ? "reference" : "fingerprint";
  const ok = kind === "ref" ? /^[0-9a-f]{32}$/i.test(raw) : /^[0-9a-f]{64}$/i.test(raw);
  if (!ok) {
    panel.append(box("warn", "This " + noun + " is not in the right format", [kind === "ref" ? "A reference is 32 characters, digits 0\\u20139 and letters a\\u2013f, as printed beside the QR code on the certificate page." : "A SHA-256 fingerprint is 64 characters, digits 0\\u20139 and letters a\\u2013f.", "You can still check the document itself below."], "lookup-box"));
    return;
  }
  const value = raw.toLowerCase();
  panel.append(el("p", { class: "small" }, el("span", { class: "spin", "aria-hidden": "true" }), "Looking up " + noun + " " + value + "\\u2026"));
  let res;
  try { res = await fetch("/v1/verify/" + (kind === "ref" ? "ref/" : "hash/") + value); } catch { res = null; }
  panel.textContent = "";
  if (res && res.ok) {
    const found = await res.json();
    state.lookup = { kind, value, found };
    panel.append(box("info", kind === "ref" ? "This service signed a document under this reference" : "This service signed a document with this fingerprint", [
      dl([["Reference", kind === "ref" ? value : null, "mono"], ["Signed on", when(found.signedAt)], ["Signing event", found.eventId], ["Signed file SHA-256", found.outputSha256, "mono"], ["Before signing", found.inputSha256, "mono"]].filter((x) => x[1])),
      el("p", { class: "strong", text: "To make sure your copy is that same document, drop it below: this page will compare the two." }),
    ], "lookup-box"));
  } else if (res && res.status === 404) {
    panel.append(box("warn", "No record of this " + noun, ["This service has no signing event under the " + noun + " " + value + ". Check that it was scanned or typed correctly. You can still check the document itself below."], "lookup-box"));
  } else {
    const [t, m] = res ? explain(res.status, await problemOf(res)) : ["Could not reach the service", "Check your internet connection and reload the page."];
    panel.append(box("warn", t, [m], "lookup-box"));
  }
  if (state.report && state.file) render(state.report, state.file);
}

// ---------- wiring
const drop = $("drop");
const input = $("file");
input.addEventListener("change", () => { if (input.files && input.files[0]) check(input.files[0]); });
for (const ev of ["dragover", "drop"]) window.addEventListener(ev, (e) => e.preventDefault());
drop.addEventListener("dragenter", () => drop.classList.add("over"));
drop.addEventListener("dragover", () => drop.classList.add("over"));
drop.addEventListener("dragleave", (e) => { if (!drop.contains(e.relatedTarget)) drop.classList.remove("over"); });
window.addEventListener("drop", (e) => {
  drop.classList.remove("over");
  const f = e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0];
  if (f) check(f);
});
$("lookup-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const v = $("lookup-input").value.replace(/[\\s-]+/g, "");
  location.hash = (/^[0-9a-f]{64}$/i.test(v) ? "sha256=" : "ref=") + encodeURIComponent(v);
});
window.addEventListener("hashchange", lookupFromHash);
lookupFromHash();
`;

const LOCK_ICON = `<svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="M12 2a5 5 0 0 0-5 5v3H6a2 2 0 0 0-2 2v8a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-8a2 2 0 0 0-2-2h-1V7a5 5 0 0 0-5-5zm-3 8V7a3 3 0 1 1 6 0v3H9z"/></svg>`;

export function verifyPage(opts: VerifyPageOptions): string {
  const nonce = escapeAttr(opts.nonce);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Check a signed document · Signet</title>
<meta name="description" content="Check who signed a PDF, when, and whether it was changed after signing.">
<link rel="icon" href="data:,">
<style nonce="${nonce}">${CSS}</style></head>
<body data-max-bytes="${opts.maxDocumentBytes}">
<header class="top"><div class="wrap"><a class="brand" href="/">Signet</a><span>Document check</span></div></header>
<main class="wrap">
<h1>Check a signed document</h1>
<p class="lead">Find out who signed a PDF, when, and whether anything in it was changed after signing.</p>
<section id="lookup" aria-live="polite" hidden></section>
<section id="drop" class="drop" aria-labelledby="drop-h">
<p class="big" id="drop-h">Drop your PDF here</p>
<p>or</p>
<input type="file" id="file" class="vh" accept=".pdf,application/pdf">
<label for="file" class="btn">Choose a PDF file</label>
</section>
<p class="privacy">${LOCK_ICON}<span>Your file is sent only to this service, which checks it and does not keep it. Nothing is uploaded anywhere except to this service.</span></p>
<div id="status" role="status" aria-live="polite"></div>
<div id="result" hidden></div>
<section class="panel" aria-labelledby="lookup-h">
<h2 id="lookup-h">Have a reference from a certificate page?</h2>
<p class="small">Signet prints a reference and a QR code on the last page of every document it signs. Scan the QR code, or type the reference here.</p>
<form id="lookup-form" class="lookup"><label for="lookup-input">Reference (32 characters) or SHA-256 fingerprint (64 characters)</label><input id="lookup-input" name="ref" autocomplete="off" spellcheck="false" inputmode="latin"><button class="btn" type="submit">Look up</button></form>
</section>
<section class="panel help" aria-labelledby="help-h">
<h2 id="help-h">What does this check?</h2>
<p>A digital signature works like a tamper-evident seal. When a document is signed, a unique fingerprint of its contents is locked into the signature. This page recalculates that fingerprint: if even one character was changed after signing, it no longer matches, and the page says so.</p>
<p>It also checks that the signature was made with a certificate this service trusts, and shows what happened before signing, as recorded when the person signed.</p>
</section>
<noscript><p class="panel">This page needs JavaScript to check a document. Developers can call <code>POST /v1/verify</code> directly (see the <a href="/docs">API reference</a>).</p></noscript>
</main>
<footer class="wrap">Signet · <a href="/docs">API reference</a></footer>
<script nonce="${nonce}">${SCRIPT}</script>
</body></html>`;
}

/** `GET /`: a small landing page offering the verification page and the API reference. */
export function landingPage(opts: { nonce: string }): string {
  const nonce = escapeAttr(opts.nonce);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Signet</title><link rel="icon" href="data:,">
<style nonce="${nonce}">${CSS}
.choices{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:14px;margin:20px 0}
.choices a{display:block;text-decoration:none;color:inherit}.choices a:hover{border-color:var(--accent)}.choices a:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.choices h2{color:var(--accent)}</style></head>
<body>
<header class="top"><div class="wrap"><a class="brand" href="/">Signet</a><span>Electronic signatures</span></div></header>
<main class="wrap">
<h1>Signet</h1>
<p class="lead">An open e-signature service: it signs PDF documents, fills document templates, and checks signatures.</p>
<div class="choices">
<a class="panel" href="/verify"><h2>Check a signed document</h2><p>Drop a PDF to see who signed it, when, and whether it was changed after signing.</p></a>
<a class="panel" href="/docs"><h2>API reference</h2><p>For developers: signing, templates and verification over HTTP.</p></a>
</div>
</main>
</body></html>`;
}

function escapeAttr(s: string): string {
  return s.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * Loopback HTTP server for URL-input tests (runs in Node, started by global-setup.ts).
 *
 *   /pdf/<name>              a file of ../shared/corpus/pdf-plain (plain names only)
 *   /pdf-signed/<name>       a file of ../shared/corpus/pdf-signed
 *   /docx/<name>             a file of ../shared/corpus/docx
 *   /pdf/, /pdf-signed/, /docx/  JSON list of the file names there
 *   /redirect/<n>            n redirect hops (302, relative Location), then a small PDF;
 *                            ?status=301|303|307|308 picks the status, ?abs=1 absolute Locations
 *   /redirect-to?url=<u>     one redirect (302, or ?status=) to an arbitrary location
 *   /slow                    200 and the start of a PDF, then the body never finishes
 *   /hang                    never answers
 *   /big?bytes=N             N bytes, chunked, no Content-Length
 *   /big-declared?bytes=N    N bytes with Content-Length N
 *   /status/<code>           that status with a short text body
 *   /png                     a 1x1 PNG
 *   /text                    text/plain
 *   /small.pdf               the small PDF at the end of the redirect chains
 *   /headers                 the request headers as JSON (what the client sent)
 *   /crl/<name>              a file of the revocation PKI's CRL folder (CRLs, the intermediate CA)
 *   POST /pki/revoke/<name>  revokes a signer of the revocation PKI (revocation-pki.ts)
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { readFile, readdir } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import path from "node:path";

const CORPUS = fileURLToPath(new URL("../../../shared/corpus/", import.meta.url));
const CORPUS_DIRS: Record<string, { dir: string; type: string }> = {
  pdf: { dir: path.join(CORPUS, "pdf-plain") + path.sep, type: "application/pdf" },
  "pdf-signed": { dir: path.join(CORPUS, "pdf-signed") + path.sep, type: "application/pdf" },
  docx: {
    dir: path.join(CORPUS, "docx") + path.sep,
    type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  },
};

/** A one-page PDF (valid xref offsets computed below). */
function smallPdf(): Buffer {
  const objs = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
  ];
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

const SMALL_PDF = smallPdf();
const PNG_1X1 = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);
const MAX_FIXTURE_BYTES = 512 * 1024 * 1024;

function sizeParam(u: URL): number | null {
  const v = u.searchParams.get("bytes") ?? "";
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return n <= MAX_FIXTURE_BYTES ? n : null;
}

function redirectStatus(u: URL): number {
  const s = Number(u.searchParams.get("status") ?? "302");
  return [301, 302, 303, 307, 308].includes(s) ? s : 302;
}

/** Writes n filler bytes (starting with a PDF header) respecting back-pressure. */
function streamBytes(res: ServerResponse, n: number): void {
  const filler = Buffer.alloc(64 * 1024, 0x20);
  const first = Buffer.alloc(64 * 1024, 0x20);
  Buffer.from("%PDF-1.7\n").copy(first);
  let sent = 0;
  const pump = (): void => {
    while (sent < n) {
      const size = Math.min(filler.length, n - sent);
      const piece = (sent === 0 ? first : filler).subarray(0, size);
      sent += size;
      if (!res.write(piece)) {
        res.once("drain", pump);
        return;
      }
    }
    res.end();
  };
  res.on("close", () => {
    sent = n; // client went away: stop pumping
  });
  pump();
}

function send(res: ServerResponse, status: number, type: string, body: Buffer | string): void {
  res.writeHead(status, { "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

export interface FixtureHooks {
  /** Folder served under /crl/ (plain file names only). */
  crlDir?: string;
  /** Revokes a signer of the revocation PKI. */
  revoke?: (name: string) => Promise<void>;
}

async function handle(req: IncomingMessage, res: ServerResponse, hooks: FixtureHooks): Promise<void> {
  const u = new URL(req.url ?? "/", "http://fixture.invalid");
  const p = u.pathname;
  let m: RegExpMatchArray | null;

  if ((m = p.match(/^\/crl\/([A-Za-z0-9][A-Za-z0-9._-]*)$/)) && hooks.crlDir) {
    try {
      const type = m[1]!.endsWith(".cer") ? "application/pkix-cert" : "application/pkix-crl";
      return send(res, 200, type, await readFile(path.join(hooks.crlDir, m[1]!)));
    } catch {
      return send(res, 404, "text/plain", "no such file");
    }
  }
  if ((m = p.match(/^\/pki\/revoke\/([a-z]+)$/)) && req.method === "POST" && hooks.revoke) {
    await hooks.revoke(m[1]!);
    return send(res, 200, "text/plain", "revoked\n");
  }

  if ((m = p.match(/^\/(pdf|pdf-signed|docx)\/$/))) {
    const names = (await readdir(CORPUS_DIRS[m[1]!]!.dir)).filter((n) => !n.startsWith(".")).sort();
    return send(res, 200, "application/json", JSON.stringify(names));
  }
  if ((m = p.match(/^\/(pdf|pdf-signed|docx)\/([^/]+)$/))) {
    const { dir, type } = CORPUS_DIRS[m[1]!]!;
    let name: string;
    try {
      name = decodeURIComponent(m[2]!);
    } catch {
      return send(res, 400, "text/plain", "bad name");
    }
    // Plain file names only; the resolved path must stay inside the corpus directory.
    const file = path.resolve(dir, name);
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) || !file.startsWith(dir)) {
      return send(res, 400, "text/plain", "bad name");
    }
    try {
      return send(res, 200, type, await readFile(file));
    } catch {
      return send(res, 404, "text/plain", "no such file");
    }
  }
  if ((m = p.match(/^\/redirect\/(\d+)$/))) {
    const n = Number(m[1]);
    if (n === 0) return send(res, 200, "application/pdf", SMALL_PDF);
    const rest = `/redirect/${n - 1}${u.search}`;
    const location = u.searchParams.get("abs") === "1" ? `http://${req.headers.host}${rest}` : rest;
    res.writeHead(redirectStatus(u), { Location: location, "Content-Length": 0 });
    return void res.end();
  }
  if (p === "/redirect-to") {
    res.writeHead(redirectStatus(u), { Location: u.searchParams.get("url") ?? "/", "Content-Length": 0 });
    return void res.end();
  }
  if (p === "/small.pdf") return send(res, 200, "application/pdf", SMALL_PDF);
  if (p === "/slow") {
    res.writeHead(200, { "Content-Type": "application/pdf" });
    res.write("%PDF-1.4\n");
    return; // never ends; close() destroys the socket
  }
  if (p === "/hang") return; // no headers at all
  if (p === "/big" || p === "/big-declared") {
    const n = sizeParam(u);
    if (n === null) return send(res, 400, "text/plain", "bytes=N required");
    const headers: Record<string, string | number> = { "Content-Type": "application/pdf" };
    if (p === "/big-declared") headers["Content-Length"] = n;
    res.writeHead(200, headers);
    return streamBytes(res, n);
  }
  if ((m = p.match(/^\/status\/(\d{3})$/))) {
    const code = Number(m[1]);
    if (code < 200 || code > 599) return send(res, 400, "text/plain", "bad status");
    return send(res, code, "text/plain", `status ${code}\n`);
  }
  if (p === "/png") return send(res, 200, "image/png", PNG_1X1);
  if (p === "/text") return send(res, 200, "text/plain; charset=utf-8", "just some text\n");
  if (p === "/headers") {
    // Echoes the request headers, so tests can check what Signet sends.
    return send(res, 200, "application/json", JSON.stringify(req.headers));
  }
  return send(res, 404, "text/plain", "not found");
}

export async function startUrlFixtureServer(
  hooks: FixtureHooks = {},
): Promise<{ baseUrl: string; hooks: FixtureHooks; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    handle(req, res, hooks).catch(() => {
      if (!res.headersSent) send(res, 500, "text/plain", "fixture error");
      else res.destroy();
    });
  });
  server.on("connection", (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const addr = server.address();
  if (addr === null || typeof addr === "string") throw new Error("fixture server has no TCP address");
  return {
    baseUrl: `http://127.0.0.1:${addr.port}`,
    hooks,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

import { describe, expect, it } from "vitest";
import { InvalidRequest, UrlForbidden } from "../errors";
import { classifyHost } from "./address";
import { parseFetchableUrl, type UrlCheckOptions } from "./safe-fetch";

const publicOnly: UrlCheckOptions = { allowPrivate: false, selfHost: "signet.example.com" };

function forbidden(url: string, opts: UrlCheckOptions = publicOnly): UrlForbidden {
  try {
    parseFetchableUrl(url, opts);
  } catch (e) {
    expect(e, url).toBeInstanceOf(UrlForbidden);
    expect((e as UrlForbidden).code).toBe("url_forbidden");
    return e as UrlForbidden;
  }
  throw new Error(`expected ${url} to be forbidden`);
}

// Hosts in URL spelling; each is tried as https://<host>/ (so the host rule, not the scheme, refuses it).
const FORBIDDEN_HOSTS: string[] = [
  // loopback, every spelling
  "127.0.0.1",
  "127.1",
  "127.0.1",
  "127.255.255.254",
  "0x7f.1",
  "0x7f000001",
  "0X7F000001",
  "2130706433",
  "017700000001",
  "0177.0.0.1",
  "0177.0.0.01",
  "0x7f.0.0.1",
  "0x7f.0x0.0x0.0x1",
  "127.0.0.1.",
  "127.000.000.001",
  "%31%32%37.0.0.1",
  "１２７.０.０.１",
  "127。0。0。1",
  // this network
  "0",
  "0.0.0.0",
  "0x0",
  "0.1.2.3",
  // private, CGNAT, link-local (cloud metadata), benchmark, protocol assignments
  "10.0.0.1",
  "012.1",
  "167772161",
  "10.255.255.255",
  "100.64.0.1",
  "100.127.255.255",
  "169.254.169.254",
  "0xa9fea9fe",
  "2852039166",
  "0251.0376.0251.0376",
  "172.16.0.1",
  "172.31.255.255",
  "192.0.0.1",
  "192.0.0.170",
  "192.168.1.1",
  "0xc0a80101",
  "3232235777",
  "192.168.0x1.1",
  "198.18.0.1",
  "198.19.255.255",
  "192.0.2.1",
  "198.51.100.1",
  "203.0.113.1",
  // multicast, reserved, broadcast
  "224.0.0.1",
  "239.255.255.250",
  "240.0.0.1",
  "255.255.255.255",
  "4294967295",
  "0xffffffff",
  // IPv6
  "[::]",
  "[::1]",
  "[0:0:0:0:0:0:0:1]",
  "[0000:0000:0000:0000:0000:0000:0000:0001]",
  "[::0:1]",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[::FFFF:7F00:1]",
  "[0:0:0:0:0:ffff:7f00:1]",
  "[::ffff:10.0.0.1]",
  "[::ffff:a9fe:a9fe]",
  "[::ffff:192.168.1.1]",
  "[::ffff:0.0.0.0]",
  "[::127.0.0.1]",
  "[::7f00:1]",
  "[::8.8.8.8]",
  "[::ffff:0:7f00:1]",
  "[64:ff9b::a00:1]",
  "[64:ff9b::127.0.0.1]",
  "[64:ff9b::169.254.169.254]",
  "[64:ff9b:1::1]",
  "[64:ff9b:1::8.8.8.8]",
  "[2002:c0a8:101::]",
  "[2002:7f00:1::1]",
  "[2002:a9fe:a9fe::]",
  "[fc00::1]",
  "[fd12:3456:789a::1]",
  "[fe80::1]",
  "[FE80::1]",
  "[febf:ffff::1]",
  "[fec0::1]",
  "[ff02::1]",
  "[ff05::1:3]",
  "[2001::1]",
  "[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
  "[2001:db8::1]",
  "[2001:2::1]",
  "[3fff::1]",
  "[100::1]",
  "[5f00::1]",
  // names
  "localhost",
  "LOCALHOST",
  "localhost.",
  "LocalHost.",
  "foo.localhost",
  "a.b.localhost.",
  "printer.local",
  "metadata.google.internal",
  "router.home.arpa",
  "box.localdomain",
  "intranet",
  "signet.example.com",
  "SIGNET.example.com.",
];

const PUBLIC_HOSTS: [string, string][] = [
  ["example.com", "example.com"],
  ["EXAMPLE.com.", "example.com."],
  ["docs.example.co.uk", "docs.example.co.uk"],
  ["bücher.de", "xn--bcher-kva.de"],
  ["8.8.8.8", "8.8.8.8"],
  ["0x08080808", "8.8.8.8"],
  ["134744072", "8.8.8.8"],
  ["1.1.1.1", "1.1.1.1"],
  ["11.0.0.1", "11.0.0.1"],
  ["100.63.255.255", "100.63.255.255"],
  ["100.128.0.0", "100.128.0.0"],
  ["169.253.255.255", "169.253.255.255"],
  ["172.15.255.255", "172.15.255.255"],
  ["172.32.0.0", "172.32.0.0"],
  ["192.0.1.1", "192.0.1.1"],
  ["192.167.255.255", "192.167.255.255"],
  ["198.17.255.255", "198.17.255.255"],
  ["198.20.0.0", "198.20.0.0"],
  ["223.255.255.255", "223.255.255.255"],
  ["[2606:4700:4700::1111]", "[2606:4700:4700::1111]"],
  ["[2a00:1450:4001:80b::200e]", "[2a00:1450:4001:80b::200e]"],
  ["[::ffff:8.8.8.8]", "[::ffff:808:808]"],
  ["[64:ff9b::8.8.8.8]", "[64:ff9b::808:808]"],
  ["[2002:808:808::1]", "[2002:808:808::1]"],
];

describe("URL rules (allowPrivate=false)", () => {
  for (const host of FORBIDDEN_HOSTS) {
    it(`refuses https://${host}/`, () => {
      const e = forbidden(`https://${host}/doc.pdf`);
      expect(e.message).toMatch(/not a public address/);
    });
  }

  for (const [host, normalized] of PUBLIC_HOSTS) {
    it(`allows https://${host}/`, () => {
      const url = parseFetchableUrl(`https://${host}/doc.pdf`, publicOnly);
      expect(url.host).toBe(normalized);
    });
  }

  const forbiddenUrls = [
    "http://2130706433/",
    "http://0x7f.1/",
    "http://[::ffff:7f00:1]/",
    "http://[64:ff9b::a00:1]/",
    "http://[2002:c0a8:101::]/",
    "http://localhost./",
    "http://foo.localhost/",
    "http://example.com/doc.pdf",
    "https://user:pw@example.com/",
    "https://user@example.com/",
    "https://:pw@example.com/",
    "ftp://example.com/doc.pdf",
    "file:///etc/passwd",
    "javascript:alert(1)",
    "data:application/pdf;base64,JVBERi0=",
    "ws://example.com/",
    "wss://example.com/",
    "gopher://example.com/",
    "blob:https://example.com/uuid",
  ];
  for (const url of forbiddenUrls) {
    it(`refuses ${url}`, () => {
      forbidden(url);
    });
  }

  it("names the rule in the message", () => {
    expect(forbidden("ftp://example.com/").message).toBe("Only https: URLs can be fetched, not ftp:.");
    expect(forbidden("https://a:b@example.com/").message).toMatch(/user name or password/);
    expect(forbidden("https://0x7f.1/").message).toMatch(/127\.0\.0\.1 is not a public address \(loopback/);
    expect(forbidden("https://[::ffff:a9fe:a9fe]/").message).toMatch(/IPv4-mapped 169\.254\.169\.254: link-local/);
    expect(forbidden("https://signet.example.com/").message).toMatch(/own host/);
  });

  it("matches the service's own host given as host:port or with a trailing dot", () => {
    forbidden("https://signet.example.com:8443/", { allowPrivate: false, selfHost: "Signet.Example.com:8443" });
    forbidden("https://signet.example.com/", { allowPrivate: false, selfHost: "signet.example.com." });
    forbidden("https://[2606:4700::1]/", { allowPrivate: false, selfHost: "[2606:4700:0::1]:443" });
    parseFetchableUrl("https://other.example.com/", { allowPrivate: false, selfHost: "signet.example.com" });
  });

  it("refuses strings that are not URLs with invalid_request", () => {
    for (const raw of ["not a url", "//example.com/x", "https://", "https://exa mple.com/", "https://[::1/"]) {
      expect(() => parseFetchableUrl(raw, publicOnly), raw).toThrow(InvalidRequest);
    }
  });
});

describe("URL rules (allowPrivate=true)", () => {
  const open = { allowPrivate: true };
  it("allows http: and private hosts", () => {
    for (const u of [
      "http://127.0.0.1:8080/x",
      "http://localhost/",
      "https://10.0.0.1/",
      "http://[::1]/",
      "http://0x7f.1/",
    ]) {
      expect(() => parseFetchableUrl(u, open), u).not.toThrow();
    }
  });
  it("still refuses other schemes and userinfo", () => {
    for (const u of ["ftp://127.0.0.1/", "file:///etc/passwd", "javascript:alert(1)", "http://u:p@127.0.0.1/"]) {
      forbidden(u, open);
    }
  });
});

describe("classifyHost on raw host text", () => {
  const cases: [string, "ipv4" | "ipv6" | "name", boolean, string][] = [
    ["0x7f.1", "ipv4", false, "127.0.0.1"],
    ["2130706433", "ipv4", false, "127.0.0.1"],
    ["0177.0.0.1", "ipv4", false, "127.0.0.1"],
    ["127.1", "ipv4", false, "127.0.0.1"],
    ["0x7f.0.1", "ipv4", false, "127.0.0.1"],
    ["127.0.0.1.", "ipv4", false, "127.0.0.1"],
    ["  10.1.2.3  ", "ipv4", false, "10.1.2.3"],
    ["%31%30.0.0.1", "ipv4", false, "10.0.0.1"],
    ["１０.0.0.1", "ipv4", false, "10.0.0.1"],
    ["8.8.8.8", "ipv4", true, "8.8.8.8"],
    ["1.2.3.4.5", "ipv4", false, "1.2.3.4.5"],
    ["foo.0x7f", "ipv4", false, "foo.0x7f"],
    ["09.1", "ipv4", false, "09.1"],
    ["256.1.1.1", "ipv4", false, "256.1.1.1"],
    ["1.2.3.99999999999999999999", "ipv4", false, "1.2.3.99999999999999999999"],
    ["::1", "ipv6", false, "::1"],
    ["[::1]", "ipv6", false, "::1"],
    ["0:0:0:0:0:0:0:1", "ipv6", false, "::1"],
    ["::ffff:127.0.0.1", "ipv6", false, "::ffff:7f00:1"],
    ["::FFFF:7F00:0001", "ipv6", false, "::ffff:7f00:1"],
    ["fe80::1%eth0", "ipv6", false, "fe80::1"],
    ["[fe80::1%25eth0]", "ipv6", false, "fe80::1"],
    ["2606:4700::1111%eth0", "ipv6", false, "2606:4700::1111"],
    ["2606:4700:4700:0:0:0:0:1111", "ipv6", true, "2606:4700:4700::1111"],
    ["2001:db8:0:0:1:0:0:1", "ipv6", false, "2001:db8::1:0:0:1"],
    ["[2001:db8::1", "ipv6", false, "[2001:db8::1"],
    ["1::2::3", "ipv6", false, "1::2::3"],
    ["1:2:3:4:5:6:7:8:9", "ipv6", false, "1:2:3:4:5:6:7:8:9"],
    ["::ffff:1.2.3", "ipv6", false, "::ffff:1.2.3"],
    ["::ffff:1.2.3.256", "ipv6", false, "::ffff:1.2.3.256"],
    ["LOCALHOST.", "name", false, "localhost"],
    ["x.LocalHost", "name", false, "x.localhost"],
    ["localhost..", "name", false, "localhost."],
    ["a..b.com", "name", false, "a..b.com"],
    ["exa_mple.com", "name", true, "exa_mple.com"],
    ["example.com", "name", true, "example.com"],
    ["ex ample.com", "name", false, "ex ample.com"],
    ["", "name", false, ""],
    ["   ", "name", false, ""],
  ];
  for (const [raw, kind, pub, normalized] of cases) {
    it(`classifies ${JSON.stringify(raw)}`, () => {
      const c = classifyHost(raw);
      expect({ kind: c.kind, publicAddress: c.publicAddress, normalized: c.normalized }).toEqual({
        kind,
        publicAddress: pub,
        normalized,
      });
      if (!pub) expect(c.reason).toBeTruthy();
    });
  }

  it("agrees with the URL parser on every forbidden spelling", () => {
    for (const host of FORBIDDEN_HOSTS) {
      if (host === "signet.example.com" || host.startsWith("SIGNET")) continue;
      const viaUrl = classifyHost(new URL(`https://${host}/`).hostname);
      expect(viaUrl.publicAddress, host).toBe(false);
      if (!host.includes("%") && !/[^\x00-\x7f]/.test(host)) {
        expect(classifyHost(host).publicAddress, `raw ${host}`).toBe(false);
      }
    }
  });
});

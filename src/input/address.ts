/**
 * Host classification for outbound fetches: is a URL host a public address we may contact?
 *
 * A Worker cannot resolve names, so only what the host *spells* can be judged: IP literals in every
 * spelling the WHATWG URL parser (and curl-style parsers) accept, and names reserved for local use.
 * Input may be what `new URL().hostname` returns (already normalized: `[::1]`, `127.0.0.1`) or raw
 * text (`0x7f.1`, `2130706433`, `::ffff:127.0.0.1`, `fe80::1%eth0`, `LOCALHOST.`).
 *
 * IPv4 non-public: 0/8, 10/8, 100.64/10, 127/8, 169.254/16, 172.16/12, 192.0.0/24, 192.0.2/24,
 * 192.168/16, 198.18/15, 198.51.100/24, 203.0.113/24, 224/4, 240/4 (includes 255.255.255.255).
 *
 * IPv6: public only inside global unicast 2000::/3, minus 2001::/23 (IETF protocol assignments,
 * including Teredo 2001::/32, which tunnels to arbitrary IPv4 hosts), 2001:db8::/32 and 3fff::/20
 * (documentation), and 6to4 2002::/16 whose embedded IPv4 is non-public. Outside 2000::/3, the
 * IPv4-mapped ::ffff:0:0/96 and NAT64 64:ff9b::/96 forms are judged by their embedded IPv4; everything
 * else (::, ::1, IPv4-compatible ::/96, 64:ff9b:1::/48, 100::/64, fc00::/7, fe80::/10, fec0::/10,
 * ff00::/8, ...) is non-public.
 *
 * Names: `localhost`, `*.localhost`, and the special-use suffixes `.local` (mDNS), `.internal`,
 * `.home.arpa`, `.localdomain`; single-label names (resolved through search domains, never a public
 * document host); the service's own host. Anything that looks like an IP literal but does not parse is
 * non-public.
 */

export type HostKind = "ipv4" | "ipv6" | "name";

export interface HostClassification {
  kind: HostKind;
  /** True when fetching this host is allowed without ALLOW_PRIVATE_URLS. */
  publicAddress: boolean;
  /** Canonical spelling: dotted quad, RFC 5952 IPv6 (no brackets), or lower-case name without a trailing dot. */
  normalized: string;
  /** Why the host is not public (for error messages); absent when public. */
  reason?: string;
}

export interface ClassifyOptions {
  /** The service's own host name (or host:port); fetching it is refused. */
  selfHost?: string;
}

// ---------------------------------------------------------------------------------------------
// IPv4

interface V4Range {
  base: number;
  prefix: number;
  reason: string;
}

function v4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

const V4_RANGES: readonly V4Range[] = [
  { base: v4(0, 0, 0, 0), prefix: 8, reason: '"this network" (0.0.0.0/8)' },
  { base: v4(10, 0, 0, 0), prefix: 8, reason: "private network (10.0.0.0/8)" },
  { base: v4(100, 64, 0, 0), prefix: 10, reason: "shared address space (100.64.0.0/10)" },
  { base: v4(127, 0, 0, 0), prefix: 8, reason: "loopback (127.0.0.0/8)" },
  { base: v4(169, 254, 0, 0), prefix: 16, reason: "link-local (169.254.0.0/16)" },
  { base: v4(172, 16, 0, 0), prefix: 12, reason: "private network (172.16.0.0/12)" },
  { base: v4(192, 0, 0, 0), prefix: 24, reason: "IETF protocol assignments (192.0.0.0/24)" },
  { base: v4(192, 0, 2, 0), prefix: 24, reason: "documentation (192.0.2.0/24)" },
  { base: v4(192, 168, 0, 0), prefix: 16, reason: "private network (192.168.0.0/16)" },
  { base: v4(198, 18, 0, 0), prefix: 15, reason: "benchmarking (198.18.0.0/15)" },
  { base: v4(198, 51, 100, 0), prefix: 24, reason: "documentation (198.51.100.0/24)" },
  { base: v4(203, 0, 113, 0), prefix: 24, reason: "documentation (203.0.113.0/24)" },
  { base: v4(224, 0, 0, 0), prefix: 4, reason: "multicast (224.0.0.0/4)" },
  { base: v4(240, 0, 0, 0), prefix: 4, reason: "reserved (240.0.0.0/4)" },
];

/** Why an IPv4 address (as an unsigned 32-bit number) is not public, or null when it is. */
export function ipv4NonPublicReason(addr: number): string | null {
  if (addr === 0xffffffff) return "broadcast (255.255.255.255)";
  for (const r of V4_RANGES) {
    const mask = r.prefix === 0 ? 0 : (0xffffffff << (32 - r.prefix)) >>> 0;
    if ((addr & mask) >>> 0 === r.base) return r.reason;
  }
  return null;
}

export function formatIpv4(addr: number): string {
  return `${addr >>> 24}.${(addr >>> 16) & 255}.${(addr >>> 8) & 255}.${addr & 255}`;
}

/** One WHATWG IPv4 number: decimal, 0x-hex, or 0-prefixed octal. Null when not a number. */
function parseIpv4Number(part: string): number | null {
  if (part === "") return null;
  let radix = 10;
  let digits = part;
  if (digits.length >= 2 && (digits.startsWith("0x") || digits.startsWith("0X"))) {
    radix = 16;
    digits = digits.slice(2);
  } else if (digits.length >= 2 && digits.startsWith("0")) {
    radix = 8;
    digits = digits.slice(1);
  }
  if (digits === "") return 0;
  const re = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!re.test(digits)) return null;
  // Leading zeros do not change the value; avoid precision loss on absurdly long spellings.
  const trimmed = digits.replace(/^0+(?=.)/, "");
  if (trimmed.length > 12) return Number.POSITIVE_INFINITY;
  return parseInt(trimmed, radix);
}

/** True when the host "ends in a number" (WHATWG): it must then be an IPv4 address or is invalid. */
function endsInNumber(host: string): boolean {
  const parts = host.split(".");
  if (parts[parts.length - 1] === "") {
    if (parts.length === 1) return false;
    parts.pop();
  }
  const last = parts[parts.length - 1] ?? "";
  if (last !== "" && /^[0-9]+$/.test(last)) return true;
  return /^0[xX][0-9a-fA-F]*$/.test(last);
}

/** WHATWG IPv4 parser (1 to 4 parts, the last filling the remaining bytes). Null when invalid. */
export function parseIpv4(host: string): number | null {
  const parts = host.split(".");
  if (parts[parts.length - 1] === "" && parts.length > 1) parts.pop();
  if (parts.length > 4 || parts.length === 0) return null;
  const nums: number[] = [];
  for (const p of parts) {
    const n = parseIpv4Number(p);
    if (n === null) return null;
    nums.push(n);
  }
  for (let i = 0; i < nums.length - 1; i++) if (nums[i]! > 255) return null;
  const last = nums[nums.length - 1]!;
  if (last >= 256 ** (5 - nums.length)) return null;
  let addr = last;
  for (let i = 0; i < nums.length - 1; i++) addr += nums[i]! * 256 ** (3 - i);
  return addr >>> 0;
}

// ---------------------------------------------------------------------------------------------
// IPv6

/** Parses an IPv6 literal (no brackets, no zone) into 8 16-bit words, or null. */
export function parseIpv6(text: string): number[] | null {
  if (text.length === 0 || text.length > 64) return null;
  let s = text;
  let tail: number[] = [];
  // Embedded dotted IPv4 in the last 32 bits.
  const lastColon = s.lastIndexOf(":");
  const lastPart = s.slice(lastColon + 1);
  if (lastPart.includes(".")) {
    const octets = lastPart.split(".");
    if (octets.length !== 4) return null;
    const vals: number[] = [];
    for (const o of octets) {
      if (!/^[0-9]{1,3}$/.test(o)) return null;
      const v = Number(o);
      if (v > 255) return null;
      vals.push(v);
    }
    tail = [(vals[0]! << 8) | vals[1]!, (vals[2]! << 8) | vals[3]!];
    s = s.slice(0, lastColon + 1);
    // "::1.2.3.4" leaves "::"; "ffff:1.2.3.4" leaves "ffff:" (needs a word before the IPv4 part).
    if (s.endsWith(":") && !s.endsWith("::")) s = s.slice(0, -1);
  }
  const dbl = s.indexOf("::");
  if (dbl >= 0 && s.indexOf("::", dbl + 1) >= 0) return null;
  const parseGroups = (g: string): number[] | null => {
    if (g === "") return [];
    const out: number[] = [];
    for (const piece of g.split(":")) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return null;
      out.push(parseInt(piece, 16));
    }
    return out;
  };
  const want = 8 - tail.length;
  if (dbl >= 0) {
    const head = parseGroups(s.slice(0, dbl));
    const rest = parseGroups(s.slice(dbl + 2));
    if (!head || !rest) return null;
    const fill = want - head.length - rest.length;
    if (fill < 1) return null;
    return [...head, ...new Array<number>(fill).fill(0), ...rest, ...tail];
  }
  const groups = parseGroups(s);
  if (!groups || groups.length !== want) return null;
  return [...groups, ...tail];
}

/** RFC 5952 text form (lower case, longest zero run compressed). */
export function formatIpv6(words: readonly number[]): string {
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (words[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && words[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = words.map((w) => w.toString(16));
  if (bestStart < 0) return hex.join(":");
  return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLen).join(":")}`;
}

/** Why an IPv6 address is not public, or null when it is. */
export function ipv6NonPublicReason(w: readonly number[]): string | null {
  const [w0 = 0, w1 = 0, w2 = 0, w3 = 0, w4 = 0, w5 = 0, w6 = 0, w7 = 0] = w;
  const embedded = ((w6 << 16) | w7) >>> 0;
  const firstFiveZero = w0 === 0 && w1 === 0 && w2 === 0 && w3 === 0 && w4 === 0;
  if (firstFiveZero && w5 === 0) {
    if (w6 === 0 && w7 === 0) return "unspecified address (::)";
    if (w6 === 0 && w7 === 1) return "loopback (::1)";
    return "IPv4-compatible address (::/96, deprecated)";
  }
  if (firstFiveZero && w5 === 0xffff) {
    const r = ipv4NonPublicReason(embedded);
    return r ? `IPv4-mapped ${formatIpv4(embedded)}: ${r}` : null;
  }
  if (w0 === 0x64 && w1 === 0xff9b) {
    if (w2 === 0 && w3 === 0 && w4 === 0 && w5 === 0) {
      const r = ipv4NonPublicReason(embedded);
      return r ? `NAT64 form of ${formatIpv4(embedded)}: ${r}` : null;
    }
    if (w2 === 1) return "local-use NAT64 (64:ff9b:1::/48)";
  }
  if ((w0 & 0xfe00) === 0xfc00) return "unique local address (fc00::/7)";
  if ((w0 & 0xffc0) === 0xfe80) return "link-local (fe80::/10)";
  if ((w0 & 0xffc0) === 0xfec0) return "site-local (fec0::/10, deprecated)";
  if ((w0 & 0xff00) === 0xff00) return "multicast (ff00::/8)";
  if ((w0 & 0xe000) !== 0x2000) return "not a global unicast address (outside 2000::/3)";
  if (w0 === 0x2002) {
    const v = ((w1 << 16) | w2) >>> 0;
    const r = ipv4NonPublicReason(v);
    return r ? `6to4 form of ${formatIpv4(v)}: ${r}` : null;
  }
  if (w0 === 0x2001 && w1 === 0) return "Teredo tunnel (2001::/32)";
  if (w0 === 0x2001 && w1 < 0x0200) return "IETF protocol assignments (2001::/23)";
  if (w0 === 0x2001 && w1 === 0x0db8) return "documentation (2001:db8::/32)";
  if (w0 === 0x3fff && w1 < 0x1000) return "documentation (3fff::/20)";
  return null;
}

// ---------------------------------------------------------------------------------------------
// Names

const LOCAL_SUFFIXES = ["localhost", "local", "internal", "home.arpa", "localdomain"] as const;

/** Lower-cased host name without port or brackets, for comparing with the service's own host. */
function normalizeSelfHost(selfHost: string): string {
  let h = selfHost.trim().toLowerCase();
  try {
    h = new URL(`http://${h}`).hostname;
  } catch {
    // keep as given
  }
  if (h.startsWith("[") && h.endsWith("]")) {
    const words = parseIpv6(h.slice(1, -1));
    return words ? formatIpv6(words) : h;
  }
  const v4addr = endsInNumber(h) ? parseIpv4(h) : null;
  if (v4addr !== null) return formatIpv4(v4addr);
  return h.endsWith(".") ? h.slice(0, -1) : h;
}

function nonPublic(kind: HostKind, normalized: string, reason: string): HostClassification {
  return { kind, publicAddress: false, normalized, reason };
}

/**
 * Classifies a URL host (or raw host text). `publicAddress` is false for every non-public IP literal
 * in any spelling, for local-use names, for the service's own host, and for anything malformed.
 */
export function classifyHost(hostname: string, opts: ClassifyOptions = {}): HostClassification {
  const result = classifyRaw(hostname);
  if (result.publicAddress && opts.selfHost && normalizeSelfHost(opts.selfHost) === result.normalized) {
    return nonPublic(result.kind, result.normalized, "the service's own host");
  }
  return result;
}

function classifyRaw(hostname: string): HostClassification {
  let h = hostname.trim();
  if (h === "") return nonPublic("name", "", "empty host");

  // IPv6: bracketed, or anything with a colon (a raw IPv6 literal; a host never contains ':').
  if (h.startsWith("[") || h.includes(":")) {
    if (h.startsWith("[")) {
      if (!h.endsWith("]")) return nonPublic("ipv6", h.toLowerCase(), "malformed IPv6 literal");
      h = h.slice(1, -1);
    }
    // Zone identifiers (fe80::1%eth0, %25eth0) only make sense for link-local addresses: drop, judge the rest.
    const pct = h.indexOf("%");
    const zone = pct >= 0;
    if (zone) h = h.slice(0, pct);
    const words = parseIpv6(h);
    if (!words) return nonPublic("ipv6", h.toLowerCase(), "malformed IPv6 literal");
    const normalized = formatIpv6(words);
    const reason = ipv6NonPublicReason(words);
    if (reason) return nonPublic("ipv6", normalized, reason);
    if (zone) return nonPublic("ipv6", normalized, "IPv6 zone identifier");
    return { kind: "ipv6", publicAddress: true, normalized };
  }

  // Raw text may still hold percent-escapes, full-width digits or ideographic dots that the URL
  // parser would have mapped; map them the same way.
  if (h.includes("%")) {
    try {
      h = decodeURIComponent(h);
    } catch {
      return nonPublic("name", h.toLowerCase(), "malformed percent-encoding in host");
    }
  }
  h = h
    .normalize("NFKC")
    .replace(/[\u3002\uff0e\uff61]/g, ".")
    .toLowerCase();
  if (h.includes(":") || h.includes("[")) return classifyRaw(h);

  if (endsInNumber(h)) {
    const addr = parseIpv4(h);
    if (addr === null) return nonPublic("ipv4", h, "malformed IPv4 address");
    const normalized = formatIpv4(addr);
    const reason = ipv4NonPublicReason(addr);
    return reason ? nonPublic("ipv4", normalized, reason) : { kind: "ipv4", publicAddress: true, normalized };
  }

  if (/[^\x00-\x7f]/.test(h)) {
    // Raw internationalized name: let the URL parser apply IDNA (punycode), then judge that.
    try {
      h = new URL(`http://${h}/`).hostname;
    } catch {
      return nonPublic("name", h, "invalid internationalized host name");
    }
    if (endsInNumber(h)) return classifyRaw(h);
  }
  const name = h.endsWith(".") ? h.slice(0, -1) : h;
  const labels = name.split(".");
  if (name === "" || labels.some((l) => l === "")) return nonPublic("name", name, "malformed host name");
  if (!/^[a-z0-9_.-]+$/.test(name)) return nonPublic("name", name, "host name with invalid characters");
  for (const suffix of LOCAL_SUFFIXES) {
    if (name === suffix || name.endsWith(`.${suffix}`)) return nonPublic("name", name, `local name (.${suffix})`);
  }
  if (labels.length === 1) return nonPublic("name", name, "single-label host name");
  return { kind: "name", publicAddress: true, normalized: name };
}

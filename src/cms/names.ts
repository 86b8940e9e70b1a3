/**
 * Readable X.500 names (RFC 4514 string form: most specific RDN first, e.g.
 * `CN=Jane Doe, O=Example, C=FR`) from the DER of a Name.
 */
import { DerError, TAG, children, decodeOid, readDer } from "./der";
import { latin1Text, toHex } from "../util/bytes";

const SHORT_NAMES: Record<string, string> = {
  "2.5.4.3": "CN",
  "2.5.4.4": "SN",
  "2.5.4.5": "serialNumber",
  "2.5.4.6": "C",
  "2.5.4.7": "L",
  "2.5.4.8": "ST",
  "2.5.4.9": "STREET",
  "2.5.4.10": "O",
  "2.5.4.11": "OU",
  "2.5.4.12": "title",
  "2.5.4.42": "GN",
  "2.5.4.43": "initials",
  "2.5.4.46": "dnQualifier",
  "2.5.4.65": "pseudonym",
  "2.5.4.97": "organizationIdentifier",
  "1.2.840.113549.1.9.1": "emailAddress",
  "0.9.2342.19200300.100.1.25": "DC",
  "0.9.2342.19200300.100.1.1": "UID",
};

/** Decodes an ASN.1 directory string; null for a type we do not read as text. */
export function decodeDirectoryString(tag: number, content: Uint8Array): string | null {
  switch (tag) {
    case TAG.UTF8_STRING:
      return new TextDecoder("utf-8").decode(content);
    case TAG.PRINTABLE_STRING:
    case TAG.IA5_STRING:
    case TAG.TELETEX_STRING:
    case 0x1a /* VisibleString */:
      return latin1Text(content);
    case TAG.BMP_STRING: {
      let s = "";
      for (let i = 0; i + 1 < content.length; i += 2) s += String.fromCharCode((content[i]! << 8) | content[i + 1]!);
      return s;
    }
    case TAG.UNIVERSAL_STRING: {
      let s = "";
      for (let i = 0; i + 3 < content.length; i += 4) {
        const cp = ((content[i]! << 24) | (content[i + 1]! << 16) | (content[i + 2]! << 8) | content[i + 3]!) >>> 0;
        s += cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
      }
      return s;
    }
    default:
      return null;
  }
}

function escapeValue(value: string): string {
  let s = value.replace(/[\\,+"<>;=]/g, (c) => "\\" + c);
  s = s.replace(/^[ #]/, (c) => "\\" + c).replace(/ $/, "\\ ");
  // Control characters are shown escaped so a name cannot forge layout.
  return s.replace(/[\u0000-\u001f\u007f]/g, (c) => "\\" + c.charCodeAt(0).toString(16).padStart(2, "0"));
}

export interface NameAttribute {
  oid: string;
  /** Short name (CN, O, ...) or the dotted OID when unknown. */
  type: string;
  value: string;
  /** True when `value` is `#` + the hex of a value that is not a string type. */
  hex: boolean;
}

/** The attributes of a Name in encoding order, grouped by RDN. */
export function nameAttributes(nameDer: Uint8Array): NameAttribute[][] {
  const name = readDer(nameDer, 0, true);
  if (name.tag !== TAG.SEQUENCE) throw new DerError("a Name must be a SEQUENCE");
  return children(name).map((rdn) => {
    if (rdn.tag !== TAG.SET) throw new DerError("an RDN must be a SET");
    return children(rdn).map((atv) => {
      const [typeNode, valueNode] = children(atv);
      if (!typeNode || typeNode.tag !== TAG.OID || !valueNode) throw new DerError("bad AttributeTypeAndValue");
      const attrOid = decodeOid(typeNode.content);
      const text = decodeDirectoryString(valueNode.tag, valueNode.content);
      return {
        oid: attrOid,
        type: SHORT_NAMES[attrOid] ?? attrOid,
        value: text ?? "#" + toHex(valueNode.bytes),
        hex: text === null,
      };
    });
  });
}

/** RFC 4514-style string: RDNs most specific first, `, ` between them, `+` inside one. */
export function formatName(nameDer: Uint8Array): string {
  return nameAttributes(nameDer)
    .reverse()
    .map((rdn) => rdn.map((a) => `${a.type}=${a.hex ? a.value : escapeValue(a.value)}`).join("+"))
    .join(", ");
}

/** First value of an attribute (e.g. the CN), or null. */
export function nameAttribute(nameDer: Uint8Array, attrOid: string): string | null {
  for (const rdn of nameAttributes(nameDer)) for (const a of rdn) if (a.oid === attrOid) return a.value;
  return null;
}

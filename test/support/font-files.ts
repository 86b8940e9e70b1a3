/** Test support: reading and patching TrueType files' tables (runs in workerd and Node). */

/** Where table `tag` lies in an sfnt file, or undefined. */
export function sfntTable(bytes: Uint8Array, tag: string): { offset: number; length: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < view.getUint16(4); i++) {
    const at = 12 + i * 16;
    if (String.fromCharCode(...bytes.subarray(at, at + 4)) === tag)
      return { offset: view.getUint32(at + 8), length: view.getUint32(at + 12) };
  }
  return undefined;
}

/** A copy of the file with its OS/2 fsType (embedding permissions) set; checksums are not updated. */
export function withFsType(bytes: Uint8Array, fsType: number): Uint8Array {
  const out = bytes.slice();
  const os2 = sfntTable(out, "OS/2")!;
  new DataView(out.buffer).setUint16(os2.offset + 8, fsType);
  return out;
}

// Placeholder: the CMS work fills this in.
export async function startTsaServer(): Promise<{ url: string; close(): Promise<void> }> {
  return { url: "http://127.0.0.1:1/tsa", close: async () => {} };
}

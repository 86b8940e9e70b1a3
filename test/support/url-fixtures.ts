// Placeholder: the input-layer work fills this in.
export async function startUrlFixtureServer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  return { baseUrl: "http://127.0.0.1:1", close: async () => {} };
}

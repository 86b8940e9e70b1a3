import type { TestProject } from "vitest/node";
import { startUrlFixtureServer } from "./url-fixtures";
import { startTsaServer } from "./tsa-server";

/**
 * Starts the loopback servers the worker tests talk to (through real fetch from
 * workerd): a URL fixture server (documents, redirects, slow and huge bodies)
 * and a small RFC 3161 time-stamp authority.
 */
export default async function setup(project: TestProject) {
  const urls = await startUrlFixtureServer();
  const tsa = await startTsaServer();
  project.provide("fixtureBaseUrl", urls.baseUrl);
  project.provide("tsaUrl", tsa.url);
  return async () => {
    await urls.close();
    await tsa.close();
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    fixtureBaseUrl: string;
    tsaUrl: string;
  }
}

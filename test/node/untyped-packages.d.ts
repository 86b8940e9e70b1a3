// For tsconfig.node.json: packages the benchmarks and the load script use that ship no types.
declare module "node-forge";

declare module "autocannon" {
  namespace autocannon {
    /** What scripts/load.ts reads of a finished run. */
    interface Result {
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      statusCodeStats?: Record<string, { count: number }>;
    }
  }
  function autocannon(options: Record<string, unknown>): {
    on(event: string, listener: (...args: never[]) => void): void;
  };
  export default autocannon;
}

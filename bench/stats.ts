/** Timing helpers for the benchmarks: warm-up, N runs, median and p95. */
export interface Timing {
  runs: number;
  median: number;
  p95: number;
}

export async function measure(runs: number, fn: () => Promise<unknown>, warmup = 3): Promise<Timing> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
  return { runs, median: at(0.5), p95: at(0.95) };
}

export const ms = (n: number) => `${n.toFixed(1)} ms`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Peak resident memory (VmHWM; or the current VmRSS) of the workerd processes below a process (Linux). */
import { readFileSync, readdirSync } from "node:fs";
export function workerdPeakRss(rootPid: number, field: "VmHWM" | "VmRSS" = "VmHWM"): number {
  const children = new Map<number, number[]>();
  const names = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, "utf8");
      const ppid = Number(/PPid:\s+(\d+)/.exec(status)?.[1]);
      names.set(Number(entry), /Name:\s+(\S+)/.exec(status)?.[1] ?? "");
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid)!.push(Number(entry));
    } catch {
      /* process went away */
    }
  }
  let peak = 0;
  const walk = (pid: number) => {
    for (const kid of children.get(pid) ?? []) {
      if (names.get(kid) === "workerd") {
        const status = readFileSync(`/proc/${kid}/status`, "utf8");
        peak = Math.max(peak, Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024);
      }
      walk(kid);
    }
  };
  walk(rootPid);
  return peak;
}

import { describe, expect, it } from "vitest";
import { lintText } from "../../scripts/lint.mjs";

type Finding = { line: number; rule: string; message: string };
const rules = (path: string, text: string) => (lintText(path, text) as Finding[]).map((f) => `${f.line}:${f.rule}`);

describe("scripts/lint.mjs", () => {
  it("flags Node-only APIs in code that runs in workerd, with the line", () => {
    const text = [
      'import { readFileSync } from "node:fs";',
      "const b = Buffer.from(x);",
      'const v = eval("1");',
      'const f = new Function("return 1");',
      "const e = process.env.X;",
      'const m = await import("node:crypto");',
      "",
    ].join("\n");
    expect(rules("src/a.ts", text)).toEqual(["1:worker-runtime", "2:worker-runtime", "3:worker-runtime", "4:worker-runtime", "5:worker-runtime", "6:worker-runtime"]);
  });

  it("ignores the same words in comments and strings, and outside src/", () => {
    const text = ['// a Buffer, process.env, eval(x) and node:fs in prose', 'const s = "Buffer process.x eval(1) new Function";', "obj.eval(1); x.process.y;", ""].join("\n");
    expect(rules("src/a.ts", text)).toEqual([]);
    expect(rules("test/node/a.test.ts", 'import { readFileSync } from "node:fs";\nBuffer.from("");\n')).toEqual([]);
  });

  it("console.log only in the access log module", () => {
    expect(rules("src/x.ts", "console.log(1);\nconsole.error(2);\n")).toEqual(["1:console-log"]);
    expect(rules("src/http/middleware/access-log.ts", "console.log(1);\n")).toEqual([]);
  });

  it("flags focused tests, debugger, TODOs without an issue and a missing final newline", () => {
    expect(rules("test/worker/a.test.ts", 'it.only("x", () => {});\ndescribe.only("y", () => {});\n')).toEqual(["1:focused-test", "2:focused-test"]);
    expect(rules("src/a.ts", "function f() {\n  debugger;\n}\n")).toEqual(["2:debugger"]);
    expect(rules("src/a.ts", "// TODO make faster\n// TODO(#6) bounded\n/* FIXME #12 */\n")).toEqual(["1:todo-issue"]);
    expect(rules("src/a.ts", "export const a = 1;")).toEqual(["1:final-newline"]);
  });
});

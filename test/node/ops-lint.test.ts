import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { anchors, brokenLinks, slug } from "../../scripts/lib/doc-links.mjs";
import { findCycles, importCycles, importSpecifiers } from "../../scripts/lib/import-cycles.mjs";
import { layerFindings, layerViolation } from "../../scripts/lib/layers.mjs";
import { cycleFindings, lintText } from "../../scripts/lint.mjs";

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
    expect(rules("src/a.ts", text)).toEqual([
      "1:worker-runtime",
      "2:worker-runtime",
      "3:worker-runtime",
      "4:worker-runtime",
      "5:worker-runtime",
      "6:worker-runtime",
    ]);
  });

  it("ignores the same words in comments and strings, and outside src/", () => {
    const text = [
      "// a Buffer, process.env, eval(x) and node:fs in prose",
      'const s = "Buffer process.x eval(1) new Function";',
      "obj.eval(1); x.process.y;",
      "",
    ].join("\n");
    expect(rules("src/a.ts", text)).toEqual([]);
    expect(rules("test/node/a.test.ts", 'import { readFileSync } from "node:fs";\nBuffer.from("");\n')).toEqual([]);
  });

  it("console.log only in the access log module", () => {
    expect(rules("src/x.ts", "console.log(1);\nconsole.error(2);\n")).toEqual(["1:console-log"]);
    expect(rules("src/http/middleware/access-log.ts", "console.log(1);\n")).toEqual([]);
  });

  it("flags focused tests, debugger, TODOs without an issue and a missing final newline", () => {
    expect(rules("test/worker/a.test.ts", 'it.only("x", () => {});\ndescribe.only("y", () => {});\n')).toEqual([
      "1:focused-test",
      "2:focused-test",
    ]);
    expect(rules("src/a.ts", "function f() {\n  debugger;\n}\n")).toEqual(["2:debugger"]);
    expect(rules("src/a.ts", "// TODO make faster\n// TODO(#6) bounded\n/* FIXME #12 */\n")).toEqual(["1:todo-issue"]);
    expect(rules("src/a.ts", "export const a = 1;")).toEqual(["1:final-newline"]);
  });
});

describe("scripts/lib/import-cycles.mjs", () => {
  it("reads static, type-only, re-exported and dynamic imports, not the same words in comments or strings", () => {
    const text = [
      'import { a } from "./a";',
      "import type {",
      "  B,",
      '} from "../b";',
      'export * from "./c";',
      'import "./d";',
      'const e = await import("./e");',
      '// import { x } from "./commented";',
      "const s = \"import { y } from './quoted'\";",
      "Array.from(list);",
      "",
    ].join("\n");
    expect(importSpecifiers(text)).toEqual(["./a", "../b", "./c", "./d", "./e"]);
  });

  it("gives one shortest cycle for each group of modules that reach each other, and none for a chain", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c", "x"]],
      ["c", ["a", "b"]],
      ["x", ["y"]],
      ["y", []],
      ["s", ["s"]],
    ]);
    expect(findCycles(graph)).toEqual([
      ["a", "b", "c", "a"],
      ["s", "s"],
    ]);
    expect(
      findCycles(
        new Map([
          ["a", ["b"]],
          ["b", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("builds the graph from a folder's files, a type-only import closing a cycle", () => {
    const root = mkdtempSync(join(tmpdir(), "cycles-"));
    try {
      mkdirSync(join(root, "src/inner"), { recursive: true });
      writeFileSync(join(root, "src/a.ts"), 'import { b } from "./inner/b";\nexport const a = b;\n');
      writeFileSync(
        join(root, "src/inner/b.ts"),
        'import type { T } from "../a";\nimport { c } from "./index";\nexport const b = c;\n',
      );
      writeFileSync(join(root, "src/inner/index.ts"), 'import { z } from "zod";\nexport const c = z;\n');
      expect(importCycles(root, "src")).toEqual([["src/a.ts", "src/inner/b.ts", "src/a.ts"]]);
      expect(importCycles(root, "src/inner")).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("finds no import cycle anywhere under src/ (npm run lint checks the same)", () => {
    expect(cycleFindings()).toEqual([]);
  });
});

describe("scripts/lib/layers.mjs", () => {
  it("refuses an engine importing http/ or operations/, src/ importing scripts/ or test/, and allows the layers below", () => {
    expect(layerViolation("src/pdf/reader/x.ts", "src/http/problem.ts")).toMatch(/src\/pdf may not import src\/http/);
    expect(layerViolation("src/render/layout/x.ts", "src/operations/sign.ts")).toMatch(
      /src\/render may not import src\/operations/,
    );
    expect(layerViolation("src/operations/sign.ts", "src/http/app.ts")).toMatch(/may not import src\/http/);
    expect(layerViolation("src/cms/x.ts", "scripts/lib/pki.mjs")).toMatch(/nothing from scripts/);
    expect(layerViolation("src/docx/fill.ts", "test/support/docx-builder.ts")).toMatch(/nothing from test/);
    expect(layerViolation("src/docx/fill.test.ts", "test/support/docx-builder.ts")).toBeUndefined();
    expect(layerViolation("src/docx/fill.test.ts", "test/node/x.ts")).toMatch(/test\/support\/ only/);
    expect(layerViolation("src/util/bytes.ts", "src/pdf/model.ts")).toMatch(/nothing outside itself/);
    expect(layerViolation("src/http/routes/sign.ts", "src/operations/sign.ts")).toBeUndefined();
    expect(layerViolation("src/evidence/qr.ts", "src/render/index.ts")).toBeUndefined();
    expect(layerViolation("src/pdf/x.ts", "src/limits.ts")).toBeUndefined();
    expect(layerViolation("src/newroom/x.ts", "src/util/bytes.ts")).toMatch(/has no layer/);
  });

  it("reports a planted violation at its line, and none on the repository (npm run lint checks the same)", () => {
    const root = mkdtempSync(join(tmpdir(), "layers-"));
    try {
      mkdirSync(join(root, "src/pdf"), { recursive: true });
      mkdirSync(join(root, "src/http"), { recursive: true });
      writeFileSync(join(root, "src/http/problem.ts"), "export const p = 1;\n");
      writeFileSync(
        join(root, "src/pdf/reader.ts"),
        '// reads\nimport { p } from "../http/problem";\nexport const r = p;\n',
      );
      expect(layerFindings(root)).toEqual([
        {
          file: "src/pdf/reader.ts",
          line: 2,
          rule: "layer",
          message: expect.stringMatching(/^src\/pdf may not import src\/http .*"\.\.\/http\/problem"$/),
        },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
    expect(layerFindings(fileURLToPath(new URL("../..", import.meta.url)))).toEqual([]);
  });
});

describe("scripts/lib/doc-links.mjs", () => {
  it("makes a heading's anchor as GitHub does, numbering repeated headings", () => {
    expect(slug("What `valid` means")).toBe("what-valid-means");
    expect(slug("Size against Cloudflare's limits")).toBe("size-against-cloudflares-limits");
    expect(slug("Performance (npm run bench, 2 shared cores)")).toBe("performance-npm-run-bench-2-shared-cores");
    expect([...anchors("# Intro\n## Usage\n```\n# not a heading\n```\n## Usage\n")]).toEqual([
      "intro",
      "usage",
      "usage-1",
    ]);
  });

  it("flags links to missing files and missing headings with their line, not links in code or to other sites", () => {
    const root = mkdtempSync(join(tmpdir(), "doc-links-"));
    try {
      mkdirSync(join(root, "docs"));
      writeFileSync(join(root, "docs", "a.md"), "# A page\n## The rule\n");
      const page = [
        "[ok](docs/a.md) [ok](docs/a.md#the-rule) [ok](#top) [ok](https://example.com/x.md) [ok](/v1/sign)",
        "[missing](docs/b.md)",
        "[no heading](docs/a.md#the-rules) `[code](docs/c.md)`",
        "```",
        "[fenced](docs/d.md)",
        "```",
        "# Top",
      ].join("\n");
      expect(brokenLinks(root, "README.md", page)).toEqual([
        { line: 2, message: "docs/b.md: docs/b.md does not exist" },
        { line: 3, message: "docs/a.md#the-rules: docs/a.md has no heading #the-rules" },
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

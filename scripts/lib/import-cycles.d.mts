// Types for import-cycles.mjs, so TypeScript tests can import it.
export declare function importSpecifiers(text: string): string[];
export declare function importGraph(root: string, dir: string): Map<string, string[]>;
export declare function findCycles(graph: Map<string, string[]>): string[][];
export declare function importCycles(root: string, dir: string): string[][];
export declare function moduleFiles(root: string, dir: string): string[];
export declare function resolveImport(root: string, from: string, spec: string): string | undefined;

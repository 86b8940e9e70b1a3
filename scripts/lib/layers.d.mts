// Types for layers.mjs, so TypeScript tests can import it.
export declare const ENGINES: string[];
export declare const MAY_IMPORT: Record<string, string[]>;
export declare function layerOf(path: string): string | undefined;
export declare function layerViolation(from: string, target: string): string | undefined;
export declare function layerFindings(root: string): { file: string; line: number; rule: string; message: string }[];

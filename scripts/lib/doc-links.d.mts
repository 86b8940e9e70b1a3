// Types for doc-links.mjs, so TypeScript tests can import it.
export declare function docPages(root: string): string[];
export declare function slug(heading: string): string;
export declare function anchors(text: string): Set<string>;
export declare function brokenLinks(root: string, page: string, text: string): { line: number; message: string }[];

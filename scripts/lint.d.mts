// Types for lint.mjs, so TypeScript tests can import it.
export interface Finding {
  line: number;
  rule: string;
  message: string;
}
export interface FileFinding extends Finding {
  file: string;
}
export declare function sourceFiles(root?: string): string[];
export declare function lintText(path: string, text: string): Finding[];
export declare function cycleFindings(root?: string, dirs?: string[]): FileFinding[];

export function parseDevVars(text: string): Record<string, string>;
export function formatDevVar(name: string, value: string): string;

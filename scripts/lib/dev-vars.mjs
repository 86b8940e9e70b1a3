/**
 * Reads and writes `.dev.vars` (dotenv syntax as wrangler reads it). PEM values are
 * stored with `\n` escapes inside double quotes, which both wrangler and Signet's
 * PEM reader accept.
 */
export function parseDevVars(text) {
  const vars = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*)\s*$/.exec(line);
    if (!m) continue;
    let value = m[2];
    if (value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1).replace(/\\n/g, "\n").replace(/\\"/g, '"');
    }
    vars[m[1]] = value;
  }
  return vars;
}

export function formatDevVar(name, value) {
  return `${name}="${String(value).replace(/"/g, '\\"').replace(/\r?\n/g, "\\n")}"`;
}

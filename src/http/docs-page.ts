/**
 * `GET /docs`: a small self-contained reference page rendered in the browser
 * from `/openapi.json` (no CDN, no framework), so it can never drift from the
 * schemas that validate requests.
 */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Signet API reference</title>
<style>
:root{--fg:#1d2330;--muted:#5b6477;--line:#e3e6ed;--accent:#1f5fbf;--bg:#f7f8fb}
*{box-sizing:border-box}body{margin:0;font:15px/1.55 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{background:#14213d;color:#fff;padding:28px 24px}header h1{margin:0;font-size:24px}header p{margin:6px 0 0;color:#cfd6e6;max-width:60rem}
main{max-width:64rem;margin:0 auto;padding:24px}
section.op{background:#fff;border:1px solid var(--line);border-radius:10px;margin:0 0 22px;padding:18px 20px}
.m{display:inline-block;font:600 12px/1 ui-monospace,monospace;padding:5px 8px;border-radius:5px;background:var(--accent);color:#fff;margin-right:8px;text-transform:uppercase}
.m.get{background:#2e7d32}h2{font-size:18px;margin:0 0 8px}code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px}
pre{background:#f2f4f8;border:1px solid var(--line);border-radius:8px;padding:12px;overflow:auto;max-height:28rem}
table{border-collapse:collapse;width:100%;margin:8px 0}td,th{border-top:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{color:var(--muted);font-weight:600}h3{font-size:14px;margin:16px 0 4px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
</style></head><body>
<header><h1>Signet API</h1><p id="desc">Loading the OpenAPI document…</p></header>
<main id="ops"><noscript>This page renders <a href="/openapi.json">/openapi.json</a>; enable JavaScript or read the JSON directly.</noscript></main>
<script>
(async () => {
  const spec = await (await fetch('/openapi.json')).json();
  document.getElementById('desc').textContent = spec.info.description + ' (OpenAPI ' + spec.openapi + ', raw document at /openapi.json)';
  const main = document.getElementById('ops');
  const el = (tag, props = {}, ...kids) => { const e = document.createElement(tag); Object.assign(e, props); e.append(...kids); return e; };
  const resolve = (s) => s && s.$ref ? spec.components.schemas[s.$ref.split('/').pop()] : s;
  const expand = (s, depth = 0) => {
    s = resolve(s); if (!s || depth > 6) return s;
    const out = { ...s };
    if (out.properties) out.properties = Object.fromEntries(Object.entries(out.properties).map(([k, v]) => [k, expand(v, depth + 1)]));
    if (out.items) out.items = expand(out.items, depth + 1);
    return out;
  };
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const sec = el('section', { className: 'op' });
      sec.append(el('h2', {}, el('span', { className: 'm ' + method, textContent: method }), el('code', { textContent: path })));
      if (op.summary) sec.append(el('p', { textContent: op.summary }));
      if (op.description) sec.append(el('p', { textContent: op.description }));
      if (op.security && op.security.length) sec.append(el('p', {}, el('strong', { textContent: 'Auth: ' }), 'Authorization: Bearer sgn_…'));
      const body = op.requestBody && op.requestBody.content && op.requestBody.content['application/json'];
      if (body) { sec.append(el('h3', { textContent: 'Request body' }), el('pre', { textContent: JSON.stringify(expand(body.schema), null, 2) })); }
      const rows = Object.entries(op.responses || {}).map(([code, r]) => el('tr', {}, el('td', {}, el('code', { textContent: code })), el('td', { textContent: r.description || '' })));
      if (rows.length) sec.append(el('h3', { textContent: 'Responses' }), el('table', {}, el('tr', {}, el('th', { textContent: 'Status' }), el('th', { textContent: 'Meaning' })), ...rows));
      const ok = op.responses && op.responses['200'] && op.responses['200'].content && op.responses['200'].content['application/json'];
      if (ok) sec.append(el('h3', { textContent: '200 response' }), el('pre', { textContent: JSON.stringify(expand(ok.schema), null, 2) }));
      main.append(sec);
    }
  }
})().catch((e) => { document.getElementById('desc').textContent = 'Could not load /openapi.json: ' + e.message; });
</script></body></html>`;
}

import { createHash } from 'node:crypto';

// The page is written here, inline, so that it loads nothing from outside the process: no
// framework, font or stylesheet (a status page must work when the network around it does not).
// Everything it shows is set with textContent, never parsed as HTML: model names and error
// messages come from configuration and providers.

const STYLE = `
:root{color-scheme:light dark;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e;--line:#8884;font:15px/1.4 system-ui,sans-serif}
body{margin:0;padding:12px;max-width:1100px;margin-inline:auto}
h1{font-size:1.3em;margin:0 0 4px}h2{font-size:1.1em;margin:18px 0 6px}h3{font-size:1em;margin:10px 0 4px}
.meta{opacity:.75;font-size:.85em}
section.card{border:1px solid var(--line);border-radius:8px;padding:8px 10px;margin:10px 0}
.model{display:flex;flex-wrap:wrap;gap:4px 14px;padding:6px 0;border-top:1px solid var(--line)}
.model .name{font-weight:600;min-width:9em}
.state{font-weight:700;padding:0 6px;border-radius:4px;border:2px solid currentColor}
.s-closed{color:var(--ok)}.s-half-open{color:var(--warn)}.s-open{color:var(--bad)}
.s-up{color:var(--ok)}.s-degraded{color:var(--warn)}.s-down{color:var(--bad)}
.s-ok{color:var(--ok)}.s-warning{color:var(--warn)}.s-exceeded{color:var(--bad)}
.reason{flex-basis:100%;font-size:.9em;overflow-wrap:anywhere}
.fig{font-variant-numeric:tabular-nums}
table{border-collapse:collapse;width:100%;font-size:.9em}td,th{text-align:left;padding:3px 6px;border-top:1px solid var(--line);overflow-wrap:anywhere}
.bar{height:8px;background:var(--line);border-radius:4px;overflow:hidden;min-width:60px}.bar>i{display:block;height:100%;background:currentColor}
form{display:flex;flex-wrap:wrap;gap:6px;margin:10px 0}input{flex:1;min-width:12em;font:inherit;padding:6px}button{font:inherit;padding:6px 12px}
#error{color:var(--bad);font-weight:600}
#failovers td:first-child{white-space:nowrap}
[hidden]{display:none!important}
@media (max-width:600px){body{padding:8px}.model .name{min-width:100%}tr{display:block;border-top:1px solid var(--line);padding:4px 0}td{display:inline-block;border:0;padding:1px 6px 1px 0}}
`;

const SCRIPT = `
(() => {
  const jsonPath = document.querySelector('meta[name="status-json"]').content;
  const pollMs = Number(document.querySelector('meta[name="status-poll-ms"]').content);
  const KEY = 'model-router-status-key';
  const $ = (id) => document.getElementById(id);
  const el = (tag, text, cls) => { const e = document.createElement(tag); if (text !== undefined) e.textContent = String(text); if (cls) e.className = cls; return e; };
  const time = (iso) => iso ? new Date(iso).toLocaleTimeString() : '';
  const ms = (v) => v === null || v === undefined ? '–' : v + ' ms';
  const WORDS = { closed: 'CLOSED · serving', 'half-open': 'HALF-OPEN · probing', open: 'OPEN · cooling down' };
  let timer;
  const headers = () => { const k = sessionStorage.getItem(KEY); return k ? { authorization: 'Bearer ' + k } : {}; };
  async function poll() {
    clearTimeout(timer);
    try {
      const res = await fetch(jsonPath, { headers: { accept: 'application/json', ...headers() }, cache: 'no-store' });
      if (res.status === 401 || res.status === 403) {
        // the server's own words (an OpenAI-shaped or a Nest error body), else a generic line
        const body = await res.json().catch(() => ({}));
        const said = (body.error && body.error.message) || body.message;
        $('login').hidden = false;
        $('error').textContent = typeof said === 'string' ? said : 'This status needs an admin key.';
        sessionStorage.removeItem(KEY);
        return;
      }
      if (!res.ok) throw new Error('HTTP ' + res.status);
      $('login').hidden = true; $('error').textContent = '';
      render(await res.json());
    } catch (e) {
      $('error').textContent = 'Could not read the status: ' + e.message + ' (retrying)';
    }
    timer = setTimeout(poll, pollMs);
  }
  function render(r) {
    $('meta').textContent = 'Updated ' + time(r.generatedAt) + ' · store: ' + r.stateStore.type + (r.stateStore.shared ? ' (shared: circuits and budgets are every replica\\'s)' : ' (this replica only)') + ' · traffic of replica ' + r.window.replica + ' over the last ' + Math.round(r.window.ms / 60000 * 10) / 10 + ' min';
    const routers = $('routers'); routers.replaceChildren();
    for (const router of r.routers) {
      const card = el('section', undefined, 'card'); card.dataset.router = router.name;
      const h = el('h2'); h.append(el('span', 'Router ' + router.name + ' '), el('span', router.status.toUpperCase(), 'state s-' + router.status)); card.append(h);
      for (const route of router.routes) {
        card.append(el('h3', 'Route ' + route.name));
        for (const m of route.models) {
          const row = el('div', undefined, 'model'); row.dataset.model = m.name; row.dataset.state = m.state;
          row.append(el('span', m.name, 'name'), el('span', WORDS[m.state] || m.state, 'state s-' + m.state));
          row.append(el('span', m.requests + ' req · ' + m.errors + ' err', 'fig'));
          row.append(el('span', 'p50 ' + ms(m.latencyMs.p50) + ' · p95 ' + ms(m.latencyMs.p95), 'fig'));
          if (m.firstTokenMs.p50 !== null) row.append(el('span', 'first token p50 ' + ms(m.firstTokenMs.p50) + ' · p95 ' + ms(m.firstTokenMs.p95), 'fig'));
          const lim = m.limits || {};
          row.append(el('span', (lim.rpm ? lim.rpm.used + '/' + lim.rpm.limit : m.rpm) + ' rpm · ' + (lim.tpm ? lim.tpm.used + '/' + lim.tpm.limit : m.tpm) + ' tpm', 'fig'));
          if (m.skipped) row.append(el('span', 'skipped: ' + m.skipped.reason + (m.skipped.until ? ' until ' + time(m.skipped.until) : ''), 'fig'));
          const why = [];
          if (m.state === 'open' && m.cooldownUntil) why.push('until ' + time(m.cooldownUntil) + ', next probe then');
          if (m.lastError) why.push('last error ' + m.lastError.type + ': ' + m.lastError.message + (m.lastError.at ? ' (' + time(m.lastError.at) + ')' : ''));
          if (why.length) row.append(el('span', 'Reason: ' + why.join(' · '), 'reason'));
          card.append(row);
        }
      }
      if (router.decisions) {
        card.append(el('h3', 'Decision split (recent calls)'));
        const t = el('table');
        for (const d of router.decisions) {
          const tr = el('tr'); const bar = el('div', undefined, 'bar'); const fill = el('i'); fill.style.width = Math.round(d.share * 100) + '%'; bar.append(fill);
          const cell = el('td'); cell.append(bar);
          tr.append(el('td', d.route), el('td', d.calls + ' calls · ' + Math.round(d.share * 100) + '%', 'fig'), cell); t.append(tr);
        }
        card.append(t);
      }
      routers.append(card);
    }
    const budgets = $('budgets'); budgets.replaceChildren();
    if (r.budgets.length === 0) budgets.append(el('p', 'No budgets configured.', 'meta'));
    for (const b of r.budgets) {
      const tr = el('tr'); tr.dataset.budget = b.name;
      tr.append(el('td', b.name), el('td', b.state.toUpperCase(), 's-' + b.state), el('td', '$' + b.spentUsd.toFixed(6) + ' of $' + b.limitUsd + ' / ' + b.period, 'fig spent'), el('td', 'resets ' + time(b.resetsAt)));
      budgets.append(tr);
    }
    const failovers = $('failovers'); failovers.replaceChildren();
    if (r.failovers.length === 0) failovers.append(el('p', 'No failovers in the window.', 'meta'));
    for (const f of r.failovers) {
      const tr = el('tr');
      tr.append(el('td', time(f.at)), el('td', f.router + (f.route ? ' / ' + f.route : '')), el('td', f.from + ' → ' + f.to), el('td', f.reason));
      failovers.append(tr);
    }
    const extra = $('sections'); extra.replaceChildren();
    const builtIn = ['generatedAt', 'window', 'stateStore', 'sources', 'routers', 'budgets', 'failovers'];
    for (const name of Object.keys(r).filter((k) => !builtIn.includes(k))) {
      const card = el('section', undefined, 'card'); card.append(el('h2', name));
      const t = el('table'); const value = r[name];
      const show = (v) => v === null ? '–' : typeof v !== 'object' ? String(v) : 'used' in v && 'limit' in v ? v.used + ' / ' + v.limit : JSON.stringify(v);
      // a list of named entries is a row each; anything else, a row per field
      const rows = Array.isArray(value) ? value.map((v, i) => [v && v.name !== undefined ? v.name : i, v]) : Object.entries(value && typeof value === 'object' ? value : { value });
      for (const [k, v] of rows) {
        const tr = el('tr'); tr.append(el('td', k));
        if (v && typeof v === 'object' && !Array.isArray(v)) for (const [f, x] of Object.entries(v)) { if (f !== 'name') tr.append(el('td', f + ' ' + show(x))); }
        else tr.append(el('td', show(v)));
        t.append(tr);
      }
      card.append(t); extra.append(card);
    }
  }
  $('login').addEventListener('submit', (e) => { e.preventDefault(); sessionStorage.setItem(KEY, $('key').value.trim()); $('key').value = ''; poll(); });
  poll();
})();
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** The page's Content-Security-Policy: its own inline style and script, fetches to itself only. */
export const STATUS_PAGE_CSP = [
  "default-src 'none'",
  `script-src ${sha256(SCRIPT)}`,
  `style-src ${sha256(STYLE)}`,
  "connect-src 'self'",
  "img-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeAttribute = (text: string) =>
  text.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!);

/** The whole page: it reads `jsonPath` every `pollMs` and redraws itself. */
export function statusPageHtml(jsonPath: string, pollMs: number): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="status-json" content="${escapeAttribute(jsonPath)}">
<meta name="status-poll-ms" content="${pollMs}">
<title>Model router status</title>
<style>${STYLE}</style></head>
<body>
<h1>Model router status</h1>
<p id="meta" class="meta">Loading…</p>
<p id="error" role="alert"></p>
<form id="login" hidden><label for="key">Admin key (kept in this tab only)</label>
<input id="key" type="password" autocomplete="off" required><button>Show status</button></form>
<div id="routers"></div>
<h2>Budgets</h2><table id="budgets"></table>
<h2>Recent failovers</h2><table id="failovers"></table>
<div id="sections"></div>
<script>${SCRIPT}</script>
</body></html>
`;
}

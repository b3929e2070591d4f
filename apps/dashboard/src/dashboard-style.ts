/** The dashboard's one stylesheet (served as a file: the CSP allows no inline style). */
export const DASHBOARD_STYLE = `
*,*::before,*::after{box-sizing:border-box}
:root{--fg:#1a1d21;--muted:#59606b;--line:#d5d9df;--bg:#f6f7f9;--card:#fff;--accent:#0b57d0;--danger:#b3261e;--ok:#146c2e;--warn:#7a4d00}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible{outline:3px solid #f9ab00;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:6px;z-index:9}
.sandbox{background:#fff4ce;color:var(--warn);text-align:center;padding:4px 8px;font-weight:600;border-bottom:1px solid #e9d58a}
header{background:var(--card);border-bottom:1px solid var(--line)}
header .bar{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;padding:10px 16px}
header .brand{font-weight:700;text-decoration:none;color:var(--fg)}
header .who{margin-left:auto;color:var(--muted);font-size:14px;display:flex;gap:8px;align-items:center;flex-wrap:wrap}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px}
nav a{display:block;padding:6px 10px;border-radius:6px;text-decoration:none;color:var(--fg)}
nav a[aria-current=page]{background:#e8f0fe;color:var(--accent);font-weight:600}
main{max-width:1100px;margin:0 auto;padding:16px;overflow-wrap:break-word}
h1{font-size:22px;margin:8px 0 16px;overflow-wrap:anywhere}h2{font-size:17px;margin:20px 0 8px}.card>h2:first-child{margin-top:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:16px;margin-bottom:16px}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px}
.stat{font-size:24px;font-weight:700}.stat-label{color:var(--muted);font-size:13px}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:var(--card)}
th,td{text-align:left;padding:8px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:13px;color:var(--muted);font-weight:600}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:13px;word-break:break-all}
form.inline{display:inline}
.actions{display:flex;flex-wrap:wrap;gap:6px}
label{display:block;font-weight:600;margin:8px 0 4px}
input,select{font:inherit;padding:8px;border:1px solid #8a919c;border-radius:6px;max-width:100%;background:#fff;color:var(--fg)}
input[type=text],input[type=email],input[type=password],input[type=url],input[type=search]{width:100%;max-width:420px}
button,.button{font:inherit;padding:7px 14px;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:var(--accent)}
button.danger{background:var(--danger);border-color:var(--danger)}
.filters{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-end;margin-bottom:12px}
.filters label{margin:0 0 4px}
.notice{border-left:4px solid var(--ok);background:#e6f4ea;padding:10px 12px;margin-bottom:16px;border-radius:4px}
.error{border-left:4px solid var(--danger);background:#fce8e6;padding:10px 12px;margin-bottom:16px;border-radius:4px}
.qr{display:block;width:200px;height:200px;max-width:100%;margin:8px 0}
.secret{background:#fff4ce;border:1px solid #e9d58a;padding:10px 12px;border-radius:6px;margin-bottom:16px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;background:#e8eaed;color:#3c4043}
.badge.ok{background:#e6f4ea;color:var(--ok)}.badge.bad{background:#fce8e6;color:var(--danger)}.badge.warn{background:#fff4ce;color:var(--warn)}
.muted{color:var(--muted)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.pager{display:flex;gap:12px;margin-top:12px}
.chart{margin:0 0 8px}.chart svg{display:block;width:100%;height:auto;max-width:720px}
.chart .bar-settled,.key.settled{fill:#0b57d0;background:#0b57d0}.chart .bar-returned,.key.returned{fill:#b3261e;background:#b3261e}
.chart .axis{stroke:#8a919c}.chart .axis-label{fill:#59606b;font-size:12px}
.key{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:middle;margin-left:8px}
summary{cursor:pointer;color:var(--accent)}
.narrow{max-width:420px;margin:40px auto}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;min-width:0;overflow-wrap:anywhere}
@media (max-width:600px){main{padding:10px}header .who{margin-left:0;width:100%}
table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
table.stack,table.stack tbody,table.stack tr,table.stack th,table.stack td{display:block}
table.stack tr{border-bottom:1px solid var(--line);padding:6px 0}
table.stack td{border:none;padding:3px 0 3px 112px;position:relative;min-height:28px;overflow-wrap:anywhere}
table.stack td::before{content:attr(data-label);position:absolute;left:0;width:104px;color:var(--muted);font:600 13px/1.7 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;word-break:normal}
table.stack td.num{text-align:left}
table.stack td.cell-actions{padding-left:0}table.stack td.cell-actions::before{content:none}
}
`;

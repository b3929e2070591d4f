import { hashedAsset } from "@payrail/web";

/*
 * The portal's one stylesheet, kept in the code so the bundle and `npm start` serve the same
 * file with no build step. Contrast as the hosted page's: text #1b1f24 on #fff (16:1), muted
 * #4a5360 (7.6:1), accent #0b5cad (6.6:1), error #a4161a (7.5:1), sandbox #5c3c00 on #fff4d6 (9:1).
 */
const CSS = `*,*::before,*::after{box-sizing:border-box}
html{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f3f5f8}
body{margin:0;padding:1rem}
header,main{max-width:46rem;margin:0 auto}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;padding-bottom:.75rem}
header .brand{font-weight:700;margin-right:auto}
nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
nav a{color:#0b5cad;display:inline-block;padding:.5rem 0;min-height:44px}
nav a[aria-current=page]{font-weight:700;color:#1b1f24}
main{overflow-wrap:anywhere;background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgb(0 0 0/12%)}
h1{font-size:1.35rem;margin:0 0 .75rem}
h2{font-size:1.05rem;margin:1.25rem 0 .5rem}
p{line-height:1.5;margin:.5rem 0}
a{color:#0b5cad}
.muted{color:#4a5360}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.sandbox{background:#fff4d6;color:#5c3c00;border:1px solid #d9a400;border-radius:8px;padding:.5rem .75rem;margin:0;flex:0 0 100%}
.notice{border-left:4px solid #1a7f37;padding:.25rem .75rem;background:#eef8f0}
.error{color:#a4161a;font-weight:600}
table{width:100%;border-collapse:collapse;margin:.5rem 0;font-size:.95rem}
th,td{text-align:left;padding:.45rem .25rem;border-bottom:1px solid #e3e7ed;vertical-align:top}
thead th{font-weight:600;color:#4a5360}
caption{text-align:left;padding-bottom:.25rem}
.amount{text-align:right;white-space:nowrap}
label{display:block;font-weight:600;margin:1rem 0 .35rem}
.hint{font-size:.9rem;color:#4a5360;margin:.25rem 0 0}
input,textarea{width:100%;font:inherit;font-size:1.05rem;padding:.6rem .75rem;border:2px solid #6b7480;border-radius:8px;color:#1b1f24;background:#fff}
input[aria-invalid=true]{border-color:#a4161a}
input:focus-visible,textarea:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #0b5cad;outline-offset:2px}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1.25rem}
button,.button{font:inherit;font-weight:600;min-height:44px;padding:.6rem 1rem;border-radius:8px;border:2px solid #0b5cad;cursor:pointer;text-decoration:none;display:inline-block}
.primary{background:#0b5cad;color:#fff}
.secondary{background:#fff;color:#0b5cad}
.danger{background:#a4161a;border-color:#a4161a;color:#fff}
.link{background:none;border:none;color:#0b5cad;text-decoration:underline;padding:.5rem 0}
fieldset{border:none;padding:0;margin:1rem 0 0}
legend{font-weight:600;margin-bottom:.5rem;padding:0}
.account{display:flex;align-items:center;gap:.75rem;border:2px solid #c4cad3;border-radius:8px;padding:.75rem;margin:0 0 .5rem;font-weight:400;cursor:pointer}
.account input{width:1.25rem;height:1.25rem;margin:0}
.account:focus-within{outline:3px solid #0b5cad;outline-offset:2px}
.card{border:1px solid #c4cad3;border-radius:8px;padding:.25rem 1rem .75rem;margin:.75rem 0}
.mandate{font-size:.95rem;background:#f7f9fb;border-radius:8px;padding:.5rem .75rem}
.sent-text{white-space:pre-wrap;font-size:.95rem;background:#f7f9fb;border-radius:8px;padding:.5rem .75rem}
dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:.35rem 1rem;margin:.5rem 0}
dt{color:#4a5360}
dd{margin:0}
@media (max-width:30rem){thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}

table,caption,tbody,tr,td{display:block}tr{border-bottom:1px solid #e3e7ed;padding:.35rem 0}td{border:none;padding:.1rem 0}td.amount{text-align:left}}
`;

/** The stylesheet, named by its content's hash: cached for a year, renamed when it changes. */
export const PORTAL_STYLE = hashedAsset("portal", "css", CSS, "text/css; charset=utf-8");

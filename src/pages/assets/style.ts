/**
 * The pages' stylesheet (served by assets.ts under a content hash, cached for a year). The
 * business's accent comes in as custom properties from a nonce'd `<style>` (layout.tsx).
 */
export const stylesheet = `
*,*::before,*::after{box-sizing:border-box}
:root{--ink:#101828;--muted:#475467;--line:#e4e7ec;--bg:#f5f6f8;--card:#fff;--soft:color-mix(in srgb,var(--accent) 10%,#fff);--danger:#b42318;--radius:14px;color-scheme:light}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--ink);font:16px/1.5 ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
body.embed{background:transparent}
a{color:var(--accent-text)}
:focus-visible{outline:3px solid var(--accent-text);outline-offset:2px}
.small>a,.back a,.zoneline a,.daynav a,.facts a{display:inline-block;padding:5px 0;min-height:24px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
.skip{position:absolute;left:12px;top:-60px;background:var(--card);padding:8px 12px;border-radius:8px;z-index:9}
.skip:focus{top:12px}
.page{max-width:1000px;margin:0 auto;padding:28px 16px 48px}
.embed .page{padding:8px}
.top{display:flex;flex-wrap:wrap;gap:12px;justify-content:space-between;align-items:center;margin-bottom:18px}
.brand{display:flex;align-items:center;gap:12px;font-weight:650;font-size:1.125rem;margin:0}
.logo{width:40px;height:40px;border-radius:12px;background:var(--accent);color:var(--accent-ink);display:grid;place-items:center;font-weight:700;font-size:1rem;flex:none}
.langs{display:flex;gap:4px;margin:0;padding:0;list-style:none;font-size:.875rem}
.langs a,.langs span{display:inline-block;padding:6px 10px;border-radius:8px;min-height:32px}
.langs span{background:var(--card);border:1px solid var(--line);font-weight:600}
.card{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);box-shadow:0 1px 2px rgb(16 24 40/.05),0 12px 32px rgb(16 24 40/.06);overflow:hidden}
.cols{display:grid;grid-template-columns:300px 1fr}
.aside{padding:28px;border-right:1px solid var(--line)}
.panel{padding:28px;min-width:0}
.wide{padding:28px}
h1,h2,h3{line-height:1.25;margin:0 0 12px;letter-spacing:-.01em}
h1{font-size:1.5rem}
h2{font-size:1.25rem}
h3{font-size:1.05rem}
p{margin:0 0 12px}
.muted{color:var(--muted)}
.small{font-size:.875rem}
.progress{display:flex;flex-wrap:wrap;gap:6px 14px;list-style:none;margin:0 0 22px;padding:0;font-size:.8125rem;color:var(--muted)}
.progress li{display:flex;align-items:center;gap:6px}
.progress li::before{content:attr(data-n);display:grid;place-items:center;width:22px;height:22px;border-radius:50%;border:1px solid var(--line);font-weight:600;font-size:.75rem}
.progress li.past::before{background:var(--soft);border-color:transparent;color:var(--accent-text)}
.progress [aria-current]{color:var(--ink);font-weight:650}
.progress [aria-current]::before{background:var(--accent);border-color:var(--accent);color:var(--accent-ink)}
.facts{list-style:none;margin:16px 0 0;padding:0;display:grid;gap:10px;color:var(--muted);font-size:.9375rem}
.facts li{display:flex;gap:10px;align-items:flex-start}
.facts svg{flex:none;margin-top:3px}
.facts strong{color:var(--ink);font-weight:600}
.back{margin-top:20px}
.eyebrow{font-size:.875rem;color:var(--muted);font-weight:600;margin:0 0 4px}
.choices{list-style:none;margin:0;padding:0;display:grid;gap:12px}
.choice{display:flex;align-items:center;gap:16px;padding:18px 20px;border:1px solid var(--line);border-radius:12px;text-decoration:none;color:var(--ink);background:var(--card);transition:border-color .15s,box-shadow .15s}
.choice:hover{border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}
.choice .body{flex:1;min-width:0}
.choice .name{display:block;font-weight:650}
.choice .desc{display:block;color:var(--muted);font-size:.9375rem}
.pill{display:inline-flex;align-items:center;gap:6px;font-size:.8125rem;color:var(--muted);border:1px solid var(--line);border-radius:999px;padding:2px 10px;margin-top:8px}
.avatar{width:40px;height:40px;border-radius:50%;background:var(--soft);color:var(--accent-text);display:grid;place-items:center;font-weight:700;flex:none}
.chev{color:var(--muted);flex:none}
.monthbar{display:flex;align-items:center;justify-content:space-between;gap:8px;margin-bottom:8px}
.monthbar h3{margin:0}
.navs{display:flex;gap:6px}
.icon{display:grid;place-items:center;width:40px;height:40px;border:1px solid var(--line);border-radius:10px;color:var(--ink);text-decoration:none;background:var(--card)}
.icon:hover{border-color:var(--accent)}
table.month{width:100%;border-collapse:separate;border-spacing:4px;table-layout:fixed}
.month th{font-size:.75rem;font-weight:600;color:var(--muted);text-transform:uppercase;padding:6px 0}
.month td{padding:0;text-align:center}
.day{display:grid;place-items:center;aspect-ratio:1;max-height:52px;margin:auto;width:100%;border-radius:10px;font-weight:500;color:var(--muted);text-decoration:none}
a.day{background:var(--soft);color:var(--accent-text);font-weight:700}
a.day:hover{background:var(--accent);color:var(--accent-ink)}
.day.today{box-shadow:inset 0 -3px 0 -1px currentColor}
.dayhead{display:flex;flex-wrap:wrap;align-items:baseline;justify-content:space-between;gap:8px;margin-bottom:6px}
.slots{display:grid;grid-template-columns:repeat(auto-fill,minmax(112px,1fr));gap:10px;margin:16px 0 20px;padding:0;list-style:none}
.slot{width:100%;min-height:48px;border:1px solid var(--line);border-radius:10px;background:var(--card);color:var(--ink);font:inherit;font-weight:600;cursor:pointer;transition:border-color .15s,background .15s}
.slot:hover{border-color:var(--accent);background:var(--soft)}
.daynav{display:flex;flex-wrap:wrap;gap:8px;justify-content:space-between;margin-top:8px}
.zoneline{display:flex;flex-wrap:wrap;align-items:center;gap:6px 8px;color:var(--muted);margin:0 0 14px}
.zoneline svg{flex:none}
.date{margin:0 0 4px;font-size:1.05rem}
.zone{display:flex;flex-wrap:wrap;align-items:flex-end;gap:10px;margin-top:8px}
.zone .field{flex:1 1 220px;margin:0}
.field{display:grid;gap:6px;margin-bottom:16px}
label,.label{font-weight:600;font-size:.9375rem}
.opt{font-weight:400;color:var(--muted)}
input,select,textarea{font:inherit;color:var(--ink);background:var(--card);border:1px solid #98a2b3;border-radius:10px;padding:10px 12px;min-height:46px;width:100%}
textarea{min-height:96px;resize:vertical}
[aria-invalid=true]{border-color:var(--danger);box-shadow:0 0 0 1px var(--danger)}
.err{color:var(--danger);font-size:.875rem;font-weight:600}
.radios{display:flex;gap:16px;border:0;padding:0;margin:0 0 16px}
.radios legend{font-weight:600;font-size:.9375rem;margin-bottom:6px;padding:0}
.radios label{font-weight:400;display:flex;gap:8px;align-items:center}
.radios input{width:20px;min-height:20px;height:20px}
.btn{display:inline-flex;align-items:center;justify-content:center;gap:8px;min-height:48px;padding:12px 20px;border-radius:10px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-ink);font:inherit;font-weight:650;text-decoration:none;cursor:pointer}
.btn:hover{filter:brightness(.94)}
.btn.ghost{background:var(--card);color:var(--ink);border-color:#98a2b3}
.btn.danger{background:var(--danger);border-color:var(--danger);color:#fff}
.btn.block{width:100%}
.actions{display:flex;flex-wrap:wrap;gap:10px;margin-top:8px}
.notice{border:1px solid #f5c26b;background:#fffaeb;color:#7a2e0e;border-radius:12px;padding:12px 16px;margin:0 0 18px}
.notice.bad{border-color:#fda29b;background:#fef3f2;color:#912018}
.notice.ok{border-color:#75e0a7;background:#ecfdf3;color:#054f31}
.notice ul{margin:6px 0 0;padding-left:20px}
.notice a{color:inherit}
.hold{display:flex;gap:10px;align-items:center;background:var(--soft);border-radius:12px;padding:12px 14px;margin:16px 0 0;font-size:.9375rem}
.hold svg{flex:none}
.hold strong{font-variant-numeric:tabular-nums}
.done{text-align:center;padding:40px 28px}
.check{width:56px;height:56px;border-radius:50%;display:grid;place-items:center;margin:0 auto 14px;background:var(--soft);color:var(--accent-text)}
dl.sum{display:grid;grid-template-columns:max-content 1fr;gap:10px 20px;text-align:left;max-width:520px;margin:22px auto;padding:20px 0;border-top:1px solid var(--line);border-bottom:1px solid var(--line)}
dl.sum dt{font-weight:600}
dl.sum dd{margin:0}
.done .actions{justify-content:center;margin-bottom:14px}
.done .progress{justify-content:center}
.check svg{width:28px;height:28px}
.section{border-top:1px solid var(--line);padding-top:22px;margin-top:22px}
.badge{display:inline-block;font-size:.8125rem;font-weight:650;border-radius:999px;padding:2px 10px;background:var(--soft);color:var(--accent-text);vertical-align:middle}
.badge.off{background:#f2f4f7;color:#344054}
.trap{display:none}
@media (max-width:760px){.cols{grid-template-columns:1fr}.aside{border-right:0;border-bottom:1px solid var(--line);padding:20px}.panel,.wide{padding:20px}.page{padding:16px 12px 32px}dl.sum{grid-template-columns:1fr;gap:2px}dl.sum dd{margin-bottom:10px}.daynav .other{order:-1;flex-basis:100%}}
`;

/**
 * The office's own stylesheet, on top of the booking pages' (same look): its colours, the frame
 * (bar and nav), the day's columns and the booking page. A block's place in a column is said by
 * classes defined here once (src/office/day/place.ts), never by style attributes (the policy
 * allows none) nor a rule per block.
 */
import { MAX_HOURS, MAX_LANES } from "../day/place";

/** `.x1{--x:1}` … for values 1 to `last` (0 is each property's default). */
const scale = (letter: string, last: number) =>
  Array.from({ length: last }, (_, i) => `.${letter}${i + 1}{--${letter}:${i + 1}}`).join("");

/** The place classes: start and length in hours and 5-minute steps, the lane and how many lanes share the width. */
const places = [
  scale("a", MAX_HOURS),
  scale("b", 11),
  scale("c", MAX_HOURS),
  scale("d", 11),
  scale("l", MAX_LANES - 1),
  scale("n", MAX_LANES),
].join("");

export const officeStylesheet = `
:root{--accent:#1f6feb;--accent-ink:#fff;--accent-text:#0b57c9;--busy:#eef4ff;--hours:#f0f7ee;--warn:#9a3412}
.desk{max-width:1400px}
.bar{display:flex;flex-wrap:wrap;gap:8px 16px;align-items:center;justify-content:space-between;margin-bottom:18px}
.bar nav ul{display:flex;flex-wrap:wrap;gap:4px;list-style:none;margin:0;padding:0}
.bar nav a,.bar nav button{display:inline-block;padding:8px 12px;border-radius:8px;min-height:40px;font:inherit;color:var(--ink);text-decoration:none;border:1px solid transparent;background:none;cursor:pointer}
.bar nav a[aria-current]{background:var(--card);border-color:var(--line);font-weight:650}
.bar nav a:hover,.bar nav button:hover{border-color:var(--accent)}
.who{margin:0;color:var(--muted);font-size:.9375rem}
.sheet{background:var(--card);border:1px solid var(--line);border-radius:var(--radius);padding:20px}
.dayhead{display:flex;flex-wrap:wrap;gap:10px 16px;align-items:center;justify-content:space-between;margin-bottom:14px}
.dayhead h1{margin:0}
.steps{display:flex;flex-wrap:wrap;gap:6px;align-items:center}
.steps a,.pick button{display:inline-flex;align-items:center;min-height:40px;padding:6px 12px;border:1px solid var(--line);border-radius:10px;background:var(--card);color:var(--ink);text-decoration:none;font:inherit;cursor:pointer}
.steps a:hover,.pick button:hover{border-color:var(--accent)}
.pick{display:flex;gap:6px;align-items:center}
.pick input{width:auto;min-height:40px;padding:6px 8px;border:1px solid var(--line);border-radius:10px;font:inherit}
.board{overflow-x:auto;padding:2px 2px 8px;margin:-2px}
.columns{display:grid;grid-template-columns:4.25rem;grid-auto-columns:minmax(200px,1fr);grid-template-rows:auto auto auto;column-gap:10px}
.columns.week{grid-auto-columns:minmax(150px,1fr);column-gap:8px}
.axis{grid-column:1;grid-row:1/span 3;display:grid;grid-template-rows:subgrid;position:sticky;left:0;z-index:2;background:var(--card)}
.axis>div{grid-row:3;border-top:1px solid transparent}
.axis span{display:block;height:96px;padding:2px 8px 0 0;text-align:right;font-size:.6875rem;line-height:1;color:var(--muted)}
.column{grid-row:1/span 3;display:grid;grid-template-rows:subgrid;border:1px solid var(--line);border-radius:12px;overflow:hidden;min-width:0;background:var(--card)}
.column h2{font-size:1rem;margin:0;padding:10px 12px;border-bottom:1px solid var(--line);display:flex;justify-content:space-between;gap:8px;flex-wrap:wrap}
.column h2 a{font-size:.875rem;font-weight:500}
.column .kind{font-weight:500;color:var(--muted);font-size:.8125rem}
.hoursnote{margin:0;padding:6px 12px;font-size:.8125rem;line-height:1.35;color:var(--muted);border-bottom:1px solid var(--line)}
.track{position:relative;background:repeating-linear-gradient(to bottom,var(--line) 0 1px,transparent 1px 96px)}
.track ul{position:absolute;inset:0 4px;list-style:none;margin:0;padding:0}
.band,.track li{position:absolute;top:calc(var(--a,0)*96px + var(--b,0)*8px);height:calc(var(--c,0)*96px + var(--d,0)*8px)}
.band{left:0;right:0;background:var(--hours)}
.track li{left:calc(var(--l,0)*100%/var(--n,1));width:calc(100%/var(--n,1));padding:0 1px}
.track li a{display:block;height:100%;overflow:hidden;padding:4px 8px;border-radius:8px;border:1px solid var(--accent);border-left-width:4px;background:var(--busy);color:var(--ink);text-decoration:none;font-size:.8125rem;line-height:1.3}
.track li b{font-weight:650}
.track li.off a{border-color:var(--line);background:#f8f9fb;color:var(--muted)}
.track li.clash a{border-color:var(--warn);background:#fff4ed}
${places}
.flag{display:inline-block;font-weight:700;color:var(--warn);text-decoration:none}
.empty{padding:10px 12px;margin:0;color:var(--muted);font-size:.875rem}
.flash{padding:10px 14px;border-radius:10px;background:var(--hours);border:1px solid #b7dfb0;margin:0 0 14px}
.refused{padding:10px 14px;border-radius:10px;background:#fef3f2;border:1px solid #fecdca;margin:0 0 14px}
.firstrun{padding:14px 18px;border-radius:12px;background:var(--card);border:1px solid var(--accent);margin:0 0 18px}
.firstrun h2{font-size:1.0625rem;margin:0 0 4px}
.firstrun ol{list-style:none;padding:0;margin:10px 0}
.firstrun li{padding:4px 0}
.firstrun .mark{display:inline-block;width:1.5em;font-weight:700;color:var(--muted)}
.firstrun .done .mark{color:#1a7f37}
.firstrun .state{color:var(--muted);font-size:.875rem}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:18px}
dl.facts2{display:grid;grid-template-columns:max-content 1fr;gap:6px 14px;margin:0}
dl.facts2 dt{color:var(--muted)}
dl.facts2 dd{margin:0;overflow-wrap:anywhere}
.deskactions form{display:grid;gap:8px;margin:0 0 16px;justify-items:start}
.deskactions label{font-weight:600}
.deskactions textarea,.deskactions input[type=text]{width:100%;padding:8px;border:1px solid var(--line);border-radius:10px;font:inherit}
.row{display:flex;flex-wrap:wrap;gap:8px}
table.log{width:100%;border-collapse:collapse;font-size:.875rem}
.log th,.log td{text-align:left;padding:6px 8px;border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}
.stack>section{margin-top:26px}
.people{list-style:none;margin:0;padding:0;display:grid;gap:8px}
a.slot{display:flex;align-items:center;justify-content:center;text-decoration:none}
.people li{overflow-wrap:anywhere}
.deskactions input{width:100%;min-height:40px;padding:8px;border:1px solid var(--line);border-radius:10px;font:inherit}
.deskactions .err{margin:0}
.deskactions form{max-width:640px}
.deskactions form.pick{display:flex;flex-wrap:wrap;align-items:center}
.deskactions .pick input{flex:1 1 200px;width:auto}
.deskactions fieldset{display:grid;gap:8px;justify-items:start;width:100%;border:1px solid var(--line);border-radius:10px;padding:10px 14px;margin:0}
.deskactions legend{font-weight:600;padding:0 4px}
@media (max-width:560px){.sheet{padding:14px}.desk{padding:16px 10px 40px}}
`;

/**
 * The setup pages' few rules on top of the office's stylesheet, sent in the page's nonce'd
 * `<style>` (the frame's `positions`): the week's day fields side by side where there is room.
 */
export const setupStyle = [
  ".dayhours{border:0;padding:0;margin:0 0 12px}",
  ".dayhours legend{font-weight:650;padding:0;margin-bottom:6px}",
  ".slots{display:grid;grid-template-columns:repeat(auto-fill,minmax(130px,1fr));gap:8px;align-items:start}",
  ".slots input{padding:8px 10px}",
  ".slots .field{margin:0}",
  ".setupform{display:grid;gap:4px;max-width:640px}",
  ".setupform .btn,.inline .btn{justify-self:start}",
  ".inline{display:inline-flex;flex-wrap:wrap;gap:6px;align-items:center;margin:0}",
  ".inline select{width:auto;min-height:40px;padding:6px 8px}",
  ".inline .btn{min-height:40px;padding:6px 12px}",
  ".scroll{overflow-x:auto}",
  // A table's buttons keep their word whole on a phone ("Remove", not "Remo/ve").
  ".log .btn{white-space:nowrap}",
  ".links{padding-left:20px}",
  ".members{list-style:none;padding:0;margin:0}",
  ".members li{padding:12px 0;border-bottom:1px solid var(--line)}",
  ".members p{margin:0 0 8px}",
  // The add form under the days-off table is a step of its own, not the table's last row.
  ".addtitle{margin-top:24px}",
  ".tickbox{display:flex;gap:10px;align-items:flex-start;margin-bottom:12px}",
  ".tickbox input{flex:none;width:20px;min-height:20px;height:20px;margin:2px 0 0}",
  ".tickbox label{font-weight:400}",
  ".setupform fieldset{border:1px solid var(--line);border-radius:10px;padding:12px;margin:0 0 12px}",
  ".setupform legend{font-weight:650;padding:0 4px}",
  ".setupform .dayhours{border:0;padding:0;margin:0 0 12px}",
  // A calendar's URL is one long word: it wraps anywhere rather than widen a phone's page.
  "h1,.wrap{overflow-wrap:anywhere}",
].join("\n");

// The report's style sheet (see html_assets.h).
#include "plot/html_assets.h"

namespace aiperf::plot::html {

std::string_view report_css() {
  static constexpr std::string_view kCss = R"CSS(
:root{--bg:#f6f7f9;--card:#fff;--fg:#1d2330;--muted:#5b6474;--grid:#e3e6eb;--axis:#8a93a3;--accent:#2f6fdd;--error:#b3261e;--errbg:#fdecea;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--bg:#14171c;--card:#1d2129;--fg:#e3e6eb;--muted:#9aa3b2;--grid:#2c323d;--axis:#6b7587;--accent:#7aa7ff;--error:#ffb4ab;--errbg:#3b1d1b}}
html.printing,html.printing:root{--bg:#fff;--card:#fff;--fg:#000;--muted:#333;--grid:#ddd;--axis:#666;--accent:#000;color-scheme:light}
*{box-sizing:border-box}
body{margin:0;padding:16px 24px 32px;background:var(--bg);color:var(--fg);font:14px/1.45 system-ui,-apple-system,"Segoe UI","DejaVu Sans",sans-serif}
h1{font-size:22px;margin:4px 0 8px}
h2{font-size:16px;margin:0 0 8px}
.notes{margin:0 0 12px;padding:0;list-style:none;color:var(--muted);font-size:13px}
.notes li{margin:2px 0;overflow-wrap:anywhere}
nav ul{display:flex;flex-wrap:wrap;gap:6px 14px;margin:0 0 14px;padding:0;list-style:none;font-size:13px}
nav a{color:var(--accent);text-decoration:none}
nav a:hover{text-decoration:underline}
.card{background:var(--card);border:1px solid var(--grid);border-radius:8px;padding:14px 16px;margin:0 0 16px}
.scroll{overflow-x:auto}
table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums}
th,td{padding:4px 10px;border-bottom:1px solid var(--grid);text-align:left;white-space:nowrap}
thead th{white-space:normal;min-width:4.5em;max-width:12em;vertical-align:bottom}
td.num,th.num{text-align:right}
thead th{position:sticky;top:0;background:var(--card);font-weight:600}
th.sortable{cursor:pointer;user-select:none}
th.sortable:hover{color:var(--accent)}
th[aria-sort=ascending]::after{content:" \25B2";font-size:10px}
th[aria-sort=descending]::after{content:" \25BC";font-size:10px}
tbody tr:hover td{background:color-mix(in srgb,var(--accent) 8%,transparent)}
.toolbar{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:0 0 6px}
.legend{display:flex;flex-wrap:wrap;gap:4px 6px;flex:1}
button{font:inherit;font-size:12px;color:var(--fg);background:transparent;border:1px solid var(--grid);border-radius:4px;padding:2px 8px;cursor:pointer}
button:hover{border-color:var(--axis)}
button:disabled{opacity:.45;cursor:default}
button.on{background:var(--accent);border-color:var(--accent);color:var(--card)}
.legend button.off{opacity:.45;text-decoration:line-through}
.swatch{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.plot-area{position:relative;width:100%;height:380px}
.plot-area canvas{position:absolute;left:0;top:0;width:100%;height:100%;cursor:crosshair}
.zoombox{position:absolute;border:1px solid var(--accent);background:color-mix(in srgb,var(--accent) 15%,transparent);pointer-events:none}
.tip{position:absolute;pointer-events:none;background:var(--card);color:var(--fg);border:1px solid var(--axis);border-radius:4px;padding:4px 7px;font-size:12px;white-space:pre;box-shadow:0 2px 6px rgba(0,0,0,.25);z-index:2}
.hint{color:var(--muted);font-size:11px;margin-top:4px}
.fig-note{color:var(--muted);font-size:12px;margin:6px 0 0}
.empty{color:var(--muted);font-style:italic;padding:24px 0;text-align:center;border:1px dashed var(--grid);border-radius:6px;margin:0}
.table-card .empty{padding:8px 0;margin-bottom:8px}
.error,#errors{color:var(--error);background:var(--errbg);border:1px solid var(--error);border-radius:6px;padding:8px 12px;margin:0 0 12px;white-space:pre-wrap}
.warn{color:var(--error)}
footer{color:var(--muted);font-size:12px;margin-top:20px}
@media print{
body{background:#fff;color:#000;padding:0;font-size:11px}
nav,.toolbar button.tool,.hint,.tip,.zoombox,footer{display:none}
.card{break-inside:avoid;border-color:#bbb;page-break-inside:avoid}
.scroll{overflow:visible}
thead th{position:static}
table{font-size:9px}
th,td{padding:2px 5px}
.legend button{border:none;padding:0 6px 0 0}
.legend button.off{display:none}
}
)CSS";
  return kCss;
}

}  // namespace aiperf::plot::html

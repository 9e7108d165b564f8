// The report script's table sorting (see html_assets.h): function declarations only, joined
// into report_js()'s IIFE, where the tables are made sortable.
#include "plot/html_assets.h"

namespace aiperf::plot::html {

std::string_view tables_js() {
  static constexpr std::string_view kJs = R"JS(
// Tables: click (or Enter on) a header to sort by that column; numeric columns sort by value.
function cellNumber(text) {
  var t = text.replace(/[,\s%]/g, '');
  return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t) ? parseFloat(t) : null;
}
function isBlank(text) { var t = text.trim(); return t === '' || t === '-' || t === 'N/A' || t === 'n/a'; }
function makeSortable(table) {
  var tbody = table.tBodies[0];
  if (!table.tHead || !tbody) return;
  var heads = table.tHead.rows[0].cells, rows = Array.prototype.slice.call(tbody.rows);
  rows.forEach(function (r, i) { r.setAttribute('data-order', String(i)); });
  Array.prototype.forEach.call(heads, function (th, c) {
    var numeric = false, any = false;
    numeric = rows.every(function (r) {
      var cell = r.cells[c];
      if (!cell || isBlank(cell.textContent)) return true;
      any = true;
      return cellNumber(cell.textContent) !== null;
    }) && any;
    if (numeric) {
      th.classList.add('num');
      rows.forEach(function (r) { if (r.cells[c]) r.cells[c].classList.add('num'); });
    }
    th.classList.add('sortable');
    th.tabIndex = 0;
    th.title = 'Sort by this column';
    function sort() {
      var asc = th.getAttribute('aria-sort') !== 'ascending';
      Array.prototype.forEach.call(heads, function (o) { o.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');
      var keyed = Array.prototype.slice.call(tbody.rows).map(function (r) {
        var text = r.cells[c] ? r.cells[c].textContent : '';
        return { r: r, n: numeric ? cellNumber(text) : null, t: text, o: +r.getAttribute('data-order') };
      });
      keyed.sort(function (p, q) {
        var d;
        if (numeric) {
          if (p.n === null || q.n === null) return (p.n === null) - (q.n === null) || p.o - q.o;
          d = p.n - q.n;
        } else {
          d = p.t.localeCompare(q.t, undefined, { numeric: true });
        }
        return (asc ? d : -d) || p.o - q.o;
      });
      keyed.forEach(function (k) { tbody.appendChild(k.r); });
    }
    th.addEventListener('click', sort);
    th.addEventListener('keydown', function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); sort(); } });
  });
}

)JS";
  return kJs;
}

}  // namespace aiperf::plot::html

// The HTML report's self-test (report.html#selftest): the last part of the report's script
// (html_script.cpp joins it); it ends the script's IIFE.
#include "plot/html_assets.h"

namespace aiperf::plot::html {

std::string_view selftest_js() {
  static constexpr std::string_view kJs = R"JS(
// Opened as report.html#selftest (the end-to-end test does), the page drives its own controls
// with real DOM events and records what happened in body[data-selftest]: the steps that
// worked, or the first that did not; the first tooltip's text goes to body[data-selftest-tip]
// and the point it shows to body[data-selftest-point] ("figure-F,series,index").
function selfTest() {
  var done = [];
  function mouse(target, type, x, y) {
    target.dispatchEvent(new MouseEvent(type, { bubbles: true, clientX: x, clientY: y, button: 0 }));
  }
  try {
    var c = charts.filter(function (k) { return k.hits && k.hits.length; })[0];
    if (!c) throw new Error('no drawn chart');
    var r = c.canvas.getBoundingClientRect(), h = c.hits[0], j = 0;
    while (j < h.px.length && isNaN(h.px[j])) j++;
    mouse(c.canvas, 'mousemove', r.left + h.px[j], r.top + h.py[j]);
    if (c.tip.hidden) throw new Error('tip: hidden after hovering a point');
    body.setAttribute('data-selftest-tip', c.tip.textContent);
    body.setAttribute('data-selftest-point', c.section.id + ',' + c.tipPoint);
    done.push('tip');
    // A timeline bar, hovered at its middle, if a chart has one.
    charts.some(function (k) {
      return (k.hits || []).some(function (sh) {
        if (!sh.pe) return false;
        for (var q = 0; q < sh.px.length; q++) {
          if (isNaN(sh.pe[q])) continue;
          var kr = k.canvas.getBoundingClientRect();
          mouse(k.canvas, 'mousemove', kr.left + (sh.px[q] + sh.pe[q]) / 2, kr.top + sh.py[q]);
          if (k.tip.hidden) throw new Error('span: no tip over a bar');
          body.setAttribute('data-selftest-span-tip', k.tip.textContent);
          body.setAttribute('data-selftest-span-point', k.section.id + ',' + k.tipPoint);
          done.push('span');
          return true;
        }
        return false;
      });
    });
    var b = c.box, mx = (b.x0 + b.x1) / 2, my = (b.yt + b.yb) / 2;
    mouse(c.canvas, 'mousedown', r.left + b.x0 + 10, r.top + b.yt + 10);
    mouse(c.canvas, 'mousemove', r.left + mx, r.top + my);
    mouse(c.canvas, 'mouseup', r.left + mx, r.top + my);
    if (!c.view || c.reset.disabled) throw new Error('zoom: no zoomed view after a drag');
    done.push('zoom');
    mouse(c.canvas, 'dblclick', r.left + mx, r.top + my);
    if (c.view || !c.reset.disabled) throw new Error('reset: still zoomed after a double-click');
    done.push('reset');
    var entry = document.querySelector('.legend button');
    if (entry) {
      var owner = charts.filter(function (k) { return k.section.contains(entry); })[0];
      var si = +entry.getAttribute('data-series'), before = owner.hits.length;
      entry.click();
      if (!owner.hidden[si] || !entry.classList.contains('off') || owner.hits.length !== before - 1) {
        throw new Error('legend: series not hidden');
      }
      entry.click();
      if (owner.hidden[si] || owner.hits.length !== before) throw new Error('legend: series not shown again');
      done.push('legend');
    }
    var logx = Array.prototype.filter.call(c.section.querySelectorAll('.toolbar button'),
                                           function (k) { return k.textContent === 'log x' && !k.disabled; })[0];
    if (logx) {
      var was = c.log.x;
      logx.click();
      if (c.log.x === was || logx.classList.contains('on') === was) throw new Error('log: x axis not switched');
      logx.click();
      done.push('log');
    }
    var th = document.querySelector('th.sortable.num');
    if (th) {
      var col = th.cellIndex, tbody = th.closest('table').tBodies[0];
      var values = function () {
        return Array.prototype.map.call(tbody.rows, function (row) { return cellNumber(row.cells[col].textContent); })
                    .filter(function (v) { return v !== null; });
      };
      th.click();
      var up = values();
      th.click();
      var down = values();
      for (var k = 1; k < up.length; k++) if (up[k - 1] > up[k] || down[k - 1] < down[k]) throw new Error('sort: rows out of order');
      if (th.getAttribute('aria-sort') !== 'descending') throw new Error('sort: no aria-sort');
      done.push('sort');
    }
    body.setAttribute('data-selftest', done.join(','));
  } catch (e) {
    body.setAttribute('data-selftest', done.concat(['failed: ' + e.message]).join(','));
  }
}
})();
)JS";
  return kJs;
}

}  // namespace aiperf::plot::html

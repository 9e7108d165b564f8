// The report's script (see html_assets.h). Plain ES5-style JavaScript written for this project:
// no library, no network, nothing but the page's own DOM and the JSON block.
#include "plot/html_assets.h"

#include <string>

namespace aiperf::plot::html {

std::string_view report_js() {
  static constexpr std::string_view kMain = R"JS(
(function () {
'use strict';
var PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#59a14f', '#b07aa1', '#76b7b2', '#edc948', '#ff9da7', '#9c755f', '#bab0ac'];
var body = document.body, root = document.documentElement, errors = [], charts = [];

function showError(message) {
  errors.push(message);
  var box = document.getElementById('errors');
  if (box) { box.hidden = false; box.textContent = errors.join('\n'); }
  body.setAttribute('data-status', 'error');
}
window.addEventListener('error', function (ev) { showError('Script error: ' + (ev.message || ev.error)); });

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
// A series' colour: the one the report chose (as in the PNG plots), else by position.
function colorOf(s, i) { return s.color || PALETTE[i % PALETTE.length]; }
function ok(v, log) { return typeof v === 'number' && isFinite(v) && (!log || v > 0); }
// A heat map's colour for t in [0, 1]: Plotly's Plasma, as the JPEG (png_renderer.h heat_color).
var HEAT = [[13, 8, 135], [70, 3, 159], [114, 1, 168], [156, 23, 158], [189, 55, 134],
            [216, 87, 107], [237, 121, 83], [251, 159, 58], [253, 202, 38], [240, 249, 33]];
function heatColor(t) {
  t = ok(t) ? Math.max(0, Math.min(1, t)) : 0;
  var f = t * (HEAT.length - 1), i = Math.min(HEAT.length - 2, Math.floor(f)), u = f - i, c = [];
  for (var k = 0; k < 3; k++) c.push(Math.round(HEAT[i][k] + (HEAT[i + 1][k] - HEAT[i][k]) * u));
  return 'rgb(' + c.join(',') + ')';
}
function zMax(s) { var m = 0; (s.z || []).forEach(function (v) { if (ok(v) && v > m) m = v; }); return m; }

// Values in tooltips: 6 significant digits; exponents only for very large or small numbers.
function fmtValue(v) {
  if (!ok(v)) return '-';
  var a = Math.abs(v);
  if (a !== 0 && (a >= 1e9 || a < 1e-4)) return v.toExponential(4).replace('e+', 'e');
  return String(Number(v.toPrecision(6)));
}
// Tick labels: as many decimals as the tick step needs, thousands grouped as in the PNGs.
function fmtTick(v, step) {
  if (v === 0) return '0';
  var a = Math.abs(v);
  if (a >= 1e7 || a < 1e-3) return v.toExponential(1).replace('e+', 'e').replace('.0e', 'e');
  var text = step ? v.toFixed(Math.max(0, Math.min(6, -Math.floor(Math.log10(step) + 1e-9))))
                  : String(Number(v.toPrecision(3)));
  var parts = text.split('.');
  parts[0] = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return parts.join('.');
}

function Scale(lo, hi, log, p0, p1) {
  this.log = log; this.p0 = p0;
  this.a = log ? Math.log10(lo) : lo;
  var b = log ? Math.log10(hi) : hi;
  this.k = (p1 - p0) / (b - this.a);
}
Scale.prototype.map = function (v) { return this.p0 + ((this.log ? Math.log10(v) : v) - this.a) * this.k; };
Scale.prototype.inv = function (p) { var t = this.a + (p - this.p0) / this.k; return this.log ? Math.pow(10, t) : t; };

function niceStep(raw) {
  var e = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / e;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * e;
}
function linearTicks(lo, hi, n) {
  var step = niceStep((hi - lo) / Math.max(1, n)), ticks = [];
  for (var v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9 && ticks.length < 60; v += step) {
    ticks.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  }
  return { ticks: ticks, step: step };
}
function logTicks(lo, hi, n) {
  var a = Math.floor(Math.log10(lo)), b = Math.ceil(Math.log10(hi)), ticks = [];
  var every = Math.max(1, Math.ceil((b - a) / Math.max(1, n)));
  var mults = b - a <= 3 ? [1, 2, 5] : [1];
  for (var e = a; e <= b; e += every) {
    for (var m = 0; m < mults.length; m++) {
      var v = mults[m] * Math.pow(10, e);
      if (v >= lo && v <= hi) ticks.push(v);
    }
  }
  return ticks.length >= 2 ? { ticks: ticks, step: null } : linearTicks(lo, hi, n);
}

// [lo, hi] of the shown data on one axis ('x', 'y' or 'y2'), padded by 4%; null if none.
function extent(chart, axis) {
  var lo = Infinity, hi = -Infinity, log = chart.log[axis], zero = false, levels = null;
  chart.fig.series.forEach(function (s, i) {
    if (chart.hidden[i]) return;
    if (axis !== 'x' && !!s.y2 !== (axis === 'y2')) return;
    var cols = axis === 'x' ? [s.x, s.xe, s.xlo, s.xhi] : [s.y, s.ye, s.lo, s.hi];
    if (s.mark === 'box' && s.box) cols.push(axis === 'x' ? [i - 0.25, i + 0.25] : [s.box[0], s.box[4]]);
    if (axis !== 'x' && s.mark === 'area') zero = true;
    if (axis !== 'x' && s.mark === 'spans') {
      levels = levels || {};
      s.y.forEach(function (v) { if (ok(v, log)) levels[v] = 1; });
    }
    cols.forEach(function (c) {
      if (!c) return;
      for (var j = 0; j < c.length; j++) {
        var v = c[j];
        if (!ok(v, log)) continue;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
    });
  });
  if (lo > hi) return null;
  var spec = chart.fig[axis];
  if (spec && spec.zero) zero = true;  // the axis reaches down to 0 (Axis::from_zero)
  if (zero && !log) { lo = Math.min(lo, 0); hi = Math.max(hi, 0); }
  if (log) {
    if (lo === hi) return [lo / 2, hi * 2];
    var r = Math.pow(10, Math.log10(hi / lo) * 0.04);
    return [lo / r, hi * r];
  }
  if (lo === hi) { var d = lo === 0 ? 1 : Math.abs(lo) * 0.1; return [lo - d, hi + d]; }
  var m = (hi - lo) * 0.04;
  // Spans are bars centred on their level: half a level of room keeps the outer bars whole.
  if (levels) {
    var n = Object.keys(levels).length;
    m = Math.max(m, (hi - lo) / Math.max(1, n - 1) * 0.6);
    return [lo - m, hi + m];
  }
  // Non-negative data keeps 0 as its floor (no "-5" tick under latencies).
  return [lo >= 0 && lo - m < 0 ? 0 : lo - m, hi <= 0 && hi + m > 0 ? 0 : hi + m];
}

// Numeric columns arrive in page order; {"ref":N} repeats the N-th column written,
// {"seq":[first,step,count]} is first + i * step (html_text.h).
function resolveColumns(figs) {
  var cols = [], keys = ['x', 'y', 'xd', 'yd', 'z', 'lo', 'hi', 'xlo', 'xhi'];
  figs.forEach(function (fig) {
    fig.series.forEach(function (s) {
      keys.forEach(function (k) {
        var v = s[k];
        if (v === undefined || Array.isArray(v)) { if (v) cols.push(v); return; }
        if (v.seq) {
          var arr = new Array(v.seq[2]);
          for (var i = 0; i < arr.length; i++) arr[i] = v.seq[0] + i * v.seq[1];
          cols.push(arr);
          s[k] = arr;
          return;
        }
        if (!cols[v.ref]) throw new Error('column ' + v.ref + ' is missing');
        s[k] = cols[v.ref];
      });
    });
  });
}

// Bars arrive as start (x) and duration (xd), so a short bar late in a long run keeps its
// length to 6 digits; their ends are rebuilt here.
function prepare(fig) {
  fig.series.forEach(function (s) {
    if (s.yd) s.ye = s.y.map(function (v, j) { return ok(v) && ok(s.yd[j]) ? v + s.yd[j] : null; });
    if (!s.xd) return;
    s.xe = s.x.map(function (v, j) { return ok(v) && ok(s.xd[j]) ? v + s.xd[j] : null; });
  });
}

function countPoints(fig) {
  var n = 0;
  fig.series.forEach(function (s) {
    for (var j = 0; j < s.x.length; j++) if (ok(s.x[j]) && ok(s.y[j])) n++;
  });
  return n;
}

function Chart(section, fig) {
  var self = this;
  this.section = section; this.fig = fig;
  this.hidden = fig.series.map(function () { return false; });
  this.hasY2 = fig.series.some(function (s) { return s.y2; });
  this.cells = fig.series.filter(function (s) { return s.mark === 'cells'; });
  this.view = null;
  this.points = countPoints(fig);
  var slot = section.querySelector('.plot');
  if (this.points === 0) {
    slot.appendChild(el('p', 'empty', 'No data to plot for this figure.'));
    section.setAttribute('data-empty', 'true');
    section.setAttribute('data-rendered', '0 points');
    return;
  }
  this.log = { x: false, y: false, y2: false };
  var toolbar = el('div', 'toolbar'), legend = el('div', 'legend');
  toolbar.appendChild(legend);
  fig.series.forEach(function (s, i) {
    if (!s.name) return;
    var b = el('button'), sw = el('span', 'swatch');
    sw.style.background = colorOf(s, i);
    b.appendChild(sw);
    b.appendChild(document.createTextNode(s.name));
    b.setAttribute('aria-pressed', 'true');
    b.setAttribute('data-series', String(i));
    b.title = 'Show or hide this series';
    b.addEventListener('click', function () {
      self.hidden[i] = !self.hidden[i];
      b.classList.toggle('off', self.hidden[i]);
      b.setAttribute('aria-pressed', String(!self.hidden[i]));
      self.draw();
    });
    legend.appendChild(b);
  });
  ['x', 'y', 'y2'].forEach(function (axis) {
    if (axis === 'y2' && !self.hasY2) return;
    var positive = fig.series.some(function (s) {
      if (axis !== 'x' && !!s.y2 !== (axis === 'y2')) return false;
      var c = axis === 'x' ? s.x : s.y;
      for (var j = 0; j < c.length; j++) if (ok(c[j], true)) return true;
      return false;
    });
    self.log[axis] = !!(fig[axis] && fig[axis].log) && positive;
    var b = el('button', 'tool' + (self.log[axis] ? ' on' : ''), 'log ' + axis);
    b.disabled = !positive;
    b.title = positive ? 'Logarithmic ' + axis + ' axis (values <= 0 are not drawn)' : 'No positive values on this axis';
    b.addEventListener('click', function () {
      self.log[axis] = !self.log[axis];
      b.classList.toggle('on', self.log[axis]);
      self.view = null;
      self.draw();
    });
    toolbar.appendChild(b);
  });
  this.reset = el('button', 'tool', 'Reset zoom');
  this.reset.disabled = true;
  this.reset.addEventListener('click', function () { self.view = null; self.draw(); });
  toolbar.appendChild(this.reset);
  slot.appendChild(toolbar);

  this.area = el('div', 'plot-area');
  this.canvas = el('canvas');
  this.canvas.setAttribute('role', 'img');
  this.canvas.setAttribute('aria-label', fig.title || fig.id);
  this.zoombox = el('div', 'zoombox'); this.zoombox.hidden = true;
  this.tip = el('div', 'tip'); this.tip.hidden = true;
  this.area.appendChild(this.canvas);
  this.area.appendChild(this.zoombox);
  this.area.appendChild(this.tip);
  slot.appendChild(this.area);
  slot.appendChild(el('div', 'hint', 'Hover for values; drag to zoom (double-click or Reset zoom to undo)' +
                                     (legend.children.length ? '; click a legend entry to hide or show it.' : '.')));
  this.listen();
  this.draw();
  section.setAttribute('data-rendered', this.points === 1 ? '1 point' : this.points + ' points');
}

Chart.prototype.draw = function () {
  if (!this.area) return;
  var w = this.area.clientWidth, h = this.area.clientHeight;
  if (!w || !h) return;
  var dpr = window.devicePixelRatio || 1, canvas = this.canvas;
  if (root.classList.contains('printing')) dpr = Math.max(dpr, 3);  // sharp on paper
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  var ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  var css = getComputedStyle(root);
  var col = { fg: css.getPropertyValue('--fg').trim(), muted: css.getPropertyValue('--muted').trim(),
              grid: css.getPropertyValue('--grid').trim(), axis: css.getPropertyValue('--axis').trim() };
  var fig = this.fig, x0 = 72, x1 = w - (this.hasY2 || this.cells.length ? 72 : 20), yb = h - 46, yt = 12;
  this.box = { x0: x0, x1: x1, yt: yt, yb: yb };
  this.reset.disabled = !this.view;
  this.hits = [];
  this.tip.hidden = true;
  var v = this.view || {};
  var ex = v.x || extent(this, 'x'), ey = v.y || extent(this, 'y');
  var ey2 = this.hasY2 ? (v.y2 || extent(this, 'y2')) : null;
  ctx.font = '11px system-ui, "DejaVu Sans", sans-serif';
  if (!ex) {
    ctx.fillStyle = col.muted; ctx.textAlign = 'center'; ctx.textBaseline = 'middle';
    ctx.fillText('Every series is hidden or has no value on this scale.', w / 2, h / 2);
    this.scales = null;
    return;
  }
  if (!ey) ey = this.log.y ? [1, 10] : [0, 1];
  var sx = new Scale(ex[0], ex[1], this.log.x, x0, x1);
  var sy = new Scale(ey[0], ey[1], this.log.y, yb, yt);
  var sy2 = ey2 ? new Scale(ey2[0], ey2[1], this.log.y2, yb, yt) : null;
  this.scales = { x: sx, y: sy, y2: sy2, ex: ex, ey: ey, ey2: ey2 };
  // The drawn ranges, for tests and curious readers: "x:lo..hi y:lo..hi[ y2:lo..hi]" (log marked).
  var range = function (name, e, log) { return name + (log ? '(log)' : '') + ':' + fmtValue(e[0]) + '..' + fmtValue(e[1]); };
  canvas.setAttribute('data-ranges', range('x', ex, this.log.x) + ' ' + range('y', ey, this.log.y) +
                      (ey2 ? ' ' + range('y2', ey2, this.log.y2) : ''));

  // Grid, ticks and tick labels.
  ctx.lineWidth = 1;
  var xt = this.log.x ? logTicks(ex[0], ex[1], Math.max(2, Math.floor((x1 - x0) / 90)))
                      : linearTicks(ex[0], ex[1], Math.max(2, Math.floor((x1 - x0) / 90)));
  ctx.textAlign = 'center'; ctx.textBaseline = 'top';
  (fig.x.noticks ? [] : xt.ticks).forEach(function (t) {
    var p = Math.round(sx.map(t)) + 0.5;
    ctx.strokeStyle = col.grid; ctx.beginPath(); ctx.moveTo(p, yt); ctx.lineTo(p, yb); ctx.stroke();
    ctx.fillStyle = col.muted; ctx.fillText(fmtTick(t, xt.step), p, yb + 5);
  });
  var ny = Math.max(2, Math.floor((yb - yt) / 45));
  var yticks = this.log.y ? logTicks(ey[0], ey[1], ny) : linearTicks(ey[0], ey[1], ny);
  ctx.textAlign = 'right'; ctx.textBaseline = 'middle';
  yticks.ticks.forEach(function (t) {
    var p = Math.round(sy.map(t)) + 0.5;
    ctx.strokeStyle = col.grid; ctx.beginPath(); ctx.moveTo(x0, p); ctx.lineTo(x1, p); ctx.stroke();
    ctx.fillStyle = col.muted; ctx.fillText(fmtTick(t, yticks.step), x0 - 6, p);
  });
  if (sy2) {
    var y2ticks = this.log.y2 ? logTicks(ey2[0], ey2[1], ny) : linearTicks(ey2[0], ey2[1], ny);
    ctx.textAlign = 'left';
    y2ticks.ticks.forEach(function (t) {
      var p = Math.round(sy2.map(t)) + 0.5;
      ctx.strokeStyle = col.axis; ctx.beginPath(); ctx.moveTo(x1, p); ctx.lineTo(x1 + 4, p); ctx.stroke();
      ctx.fillStyle = col.muted; ctx.fillText(fmtTick(t, y2ticks.step), x1 + 7, p);
    });
  }
  ctx.strokeStyle = col.axis;
  ctx.strokeRect(x0 + 0.5, yt + 0.5, x1 - x0, yb - yt);
  // A heat map's colour bar: counts from 0 to the largest cell.
  if (this.cells.length) {
    var zm = Math.max(1, Math.max.apply(null, this.cells.map(zMax))), bx = x1 + 14, steps = 100;
    for (var q = 0; q < steps; q++) {
      ctx.fillStyle = heatColor((q + 0.5) / steps);
      ctx.fillRect(bx, yb - (yb - yt) * (q + 1) / steps, 14, (yb - yt) / steps + 1);
    }
    var zt = linearTicks(0, zm, 5);
    ctx.fillStyle = col.muted; ctx.textAlign = 'left'; ctx.textBaseline = 'middle';
    zt.ticks.forEach(function (t) { if (t <= zm) ctx.fillText(fmtTick(t, zt.step), bx + 18, yb - (yb - yt) * t / zm); });
  }

  // Axis titles.
  ctx.fillStyle = col.fg; ctx.font = '12px system-ui, "DejaVu Sans", sans-serif';
  ctx.textAlign = 'center'; ctx.textBaseline = 'bottom';
  ctx.fillText(fig.x.label || '', (x0 + x1) / 2, h - 4);
  ctx.save(); ctx.translate(14, (yt + yb) / 2); ctx.rotate(-Math.PI / 2); ctx.textBaseline = 'middle';
  ctx.fillText(fig.y.label || '', 0, 0); ctx.restore();
  if (sy2) {
    ctx.save(); ctx.translate(w - 12, (yt + yb) / 2); ctx.rotate(Math.PI / 2); ctx.textBaseline = 'middle';
    ctx.fillText(fig.y2.label || '', 0, 0); ctx.restore();
  }

  // The series, clipped to the plot box.
  ctx.save();
  ctx.beginPath(); ctx.rect(x0, yt, x1 - x0, yb - yt); ctx.clip();
  var self = this;
  fig.series.forEach(function (s, i) {
    if (self.hidden[i]) return;
    s.index = i;
    var hit = drawSeries(ctx, s, colorOf(s, i), sx, s.y2 ? sy2 : sy, self.log.x,
                         s.y2 ? self.log.y2 : self.log.y, yb - yt, col);
    hit.index = i;
    self.hits.push(hit);
  });
  ctx.restore();
  // Point labels go outside the clip, turned inwards near the box's top and right edges.
  this.hits.forEach(function (h) {
    var s = h.s, shown = 0, j;
    if (!s.labels) return;
    for (j = 0; j < h.px.length; j++) if (!isNaN(h.px[j])) shown++;
    if (shown > 300) return;
    ctx.fillStyle = col.fg;
    ctx.font = '11px system-ui, "DejaVu Sans", sans-serif';
    for (j = 0; j < h.px.length; j++) {
      var x = h.px[j], y = h.py[j];
      if (isNaN(x) || !s.labels[j] || x < x0 || x > x1 || y < yt || y > yb) continue;
      var right = x + 5 + ctx.measureText(s.labels[j]).width > x1, low = y - 18 < yt;
      ctx.textAlign = right ? 'right' : 'left';
      ctx.textBaseline = low ? 'top' : 'bottom';
      ctx.fillText(s.labels[j], right ? x - 5 : x + 5, low ? y + 4 : y - 4);
    }
  });
};

// Draws one series; returns its points in pixels for hover (NaN where nothing was drawn).
function drawSeries(ctx, s, color, sx, sy, logx, logy, height, col) {
  var n = s.x.length, px = new Float64Array(n), py = new Float64Array(n), pe = null, shown = 0;
  for (var j = 0; j < n; j++) {
    var good = ok(s.x[j], logx) && ok(s.y[j], logy);
    px[j] = good ? sx.map(s.x[j]) : NaN;
    py[j] = good ? sy.map(s.y[j]) : NaN;
    if (good) shown++;
  }
  var hit = { s: s, px: px, py: py, pe: null, th: 0 };
  ctx.strokeStyle = color; ctx.fillStyle = color; ctx.lineWidth = 1.6; ctx.lineJoin = 'round';
  if (s.mark === 'cells') {
    // Filled cells; the hover point of each is its centre.
    var zm = zMax(s) || 1;
    for (j = 0; j < n; j++) {
      if (isNaN(px[j]) || !ok(s.xe && s.xe[j], logx) || !ok(s.ye && s.ye[j], logy)) { px[j] = NaN; continue; }
      var cx = sx.map(s.xe[j]), cy = sy.map(s.ye[j]);
      ctx.fillStyle = heatColor(s.z[j] / zm);
      ctx.fillRect(Math.min(px[j], cx), Math.min(py[j], cy), Math.abs(cx - px[j]), Math.abs(cy - py[j]));
      px[j] = (px[j] + cx) / 2; py[j] = (py[j] + cy) / 2;
    }
  } else if (s.mark === 'box') {
    ctx.globalAlpha = 0.9;
    for (j = 0; j < n; j++) {
      if (isNaN(px[j])) continue;
      ctx.beginPath(); ctx.arc(px[j], py[j], 3, 0, 2 * Math.PI); ctx.fill();
    }
    ctx.globalAlpha = 1;
    if (s.box && s.box.every(function (v) { return ok(v, logy); })) {
      var c = s.index || 0, bl = sx.map(c - 0.25), br = sx.map(c + 0.25), mid = sx.map(c), cap = (br - bl) / 4;
      var b = s.box.map(function (v) { return sy.map(v); });
      ctx.globalAlpha = 0.35; ctx.fillRect(bl, b[3], br - bl, b[1] - b[3]); ctx.globalAlpha = 1;
      ctx.lineWidth = 1.6;
      ctx.strokeRect(bl, b[3], br - bl, b[1] - b[3]);
      ctx.beginPath();
      ctx.moveTo(bl, b[2]); ctx.lineTo(br, b[2]);
      ctx.moveTo(mid, b[1]); ctx.lineTo(mid, b[0]); ctx.moveTo(mid - cap, b[0]); ctx.lineTo(mid + cap, b[0]);
      ctx.moveTo(mid, b[3]); ctx.lineTo(mid, b[4]); ctx.moveTo(mid - cap, b[4]); ctx.lineTo(mid + cap, b[4]);
      ctx.stroke();
    }
  } else if (s.mark === 'spans') {
    pe = new Float64Array(n);
    var levels = {}, count = 0;
    for (j = 0; j < n; j++) if (!isNaN(py[j]) && !levels[s.y[j]]) { levels[s.y[j]] = 1; count++; }
    var th = Math.max(2, Math.min(14, height / Math.max(1, count) * 0.7));
    ctx.globalAlpha = 0.85;
    for (j = 0; j < n; j++) {
      var e = s.xe ? s.xe[j] : s.x[j];
      pe[j] = isNaN(px[j]) || !ok(e, logx) ? NaN : sx.map(e);
      if (isNaN(pe[j])) continue;
      ctx.fillRect(px[j], py[j] - th / 2, Math.max(1, pe[j] - px[j]), th);
    }
    ctx.globalAlpha = 1;
    hit.pe = pe; hit.th = th;
  } else if (s.mark === 'points') {
    var big = shown <= 2000;
    ctx.globalAlpha = big ? 0.9 : 0.55;
    for (j = 0; j < n; j++) {
      if (isNaN(px[j])) continue;
      if (big) { ctx.beginPath(); ctx.arc(px[j], py[j], 3, 0, 2 * Math.PI); ctx.fill(); }
      else ctx.fillRect(px[j] - 1.25, py[j] - 1.25, 2.5, 2.5);
    }
    ctx.globalAlpha = 1;
  } else {
    var step = s.mark === 'step';
    if (s.mark === 'area') {
      var base = logy ? sy.map(Math.pow(10, sy.a)) : sy.map(0);
      ctx.globalAlpha = 0.22;
      eachRun(px, function (a, b) {
        ctx.beginPath(); ctx.moveTo(px[a], base);
        for (var k = a; k <= b; k++) { if (step && k > a) ctx.lineTo(px[k], py[k - 1]); ctx.lineTo(px[k], py[k]); }
        ctx.lineTo(px[b], base); ctx.closePath(); ctx.fill();
      });
      ctx.globalAlpha = 1;
    }
    ctx.beginPath();
    eachRun(px, function (a, b) {
      ctx.moveTo(px[a], py[a]);
      for (var k = a + 1; k <= b; k++) { if (step) ctx.lineTo(px[k], py[k - 1]); ctx.lineTo(px[k], py[k]); }
    });
    ctx.stroke();
    if (shown === 1) {
      for (j = 0; j < n; j++) if (!isNaN(px[j])) { ctx.beginPath(); ctx.arc(px[j], py[j], 2.5, 0, 2 * Math.PI); ctx.fill(); }
    }
  }
  if (s.lo && s.hi) {
    ctx.lineWidth = 1.2; ctx.globalAlpha = 0.8;
    ctx.beginPath();
    for (j = 0; j < n; j++) {
      if (isNaN(px[j]) || !ok(s.lo[j], logy) || !ok(s.hi[j], logy)) continue;
      var a = sy.map(s.lo[j]), b = sy.map(s.hi[j]);
      ctx.moveTo(px[j], a); ctx.lineTo(px[j], b);
      ctx.moveTo(px[j] - 4, a); ctx.lineTo(px[j] + 4, a);
      ctx.moveTo(px[j] - 4, b); ctx.lineTo(px[j] + 4, b);
    }
    ctx.stroke(); ctx.globalAlpha = 1;
  }
  if (s.xlo && s.xhi) {
    ctx.lineWidth = 1.2; ctx.globalAlpha = 0.8;
    ctx.beginPath();
    for (j = 0; j < n; j++) {
      if (isNaN(px[j]) || !ok(s.xlo[j], logx) || !ok(s.xhi[j], logx)) continue;
      var l = sx.map(s.xlo[j]), r = sx.map(s.xhi[j]);
      ctx.moveTo(l, py[j]); ctx.lineTo(r, py[j]);
      ctx.moveTo(l, py[j] - 4); ctx.lineTo(l, py[j] + 4);
      ctx.moveTo(r, py[j] - 4); ctx.lineTo(r, py[j] + 4);
    }
    ctx.stroke(); ctx.globalAlpha = 1;
  }
  return hit;
}

// Calls fn(first, last) for each run of consecutive drawn points.
function eachRun(px, fn) {
  var start = -1;
  for (var j = 0; j <= px.length; j++) {
    var good = j < px.length && !isNaN(px[j]);
    if (good && start < 0) start = j;
    if (!good && start >= 0) { fn(start, j - 1); start = -1; }
  }
}

Chart.prototype.nearest = function (mx, my) {
  var best = null, bestD = 14 * 14;
  this.hits.forEach(function (h) {
    for (var j = 0; j < h.px.length; j++) {
      if (isNaN(h.px[j])) continue;
      var d;
      if (h.pe) {
        if (isNaN(h.pe[j]) || mx < h.px[j] - 3 || mx > Math.max(h.pe[j], h.px[j] + 1) + 3) continue;
        var dy = Math.abs(my - h.py[j]);
        if (dy > h.th / 2 + 3) continue;
        d = dy * dy;
      } else {
        var dx = h.px[j] - mx, dy2 = h.py[j] - my;
        d = dx * dx + dy2 * dy2;
      }
      if (d < bestD) { bestD = d; best = { h: h, j: j }; }
    }
  });
  return best;
};

Chart.prototype.showTip = function (mx, my) {
  var found = this.scales ? this.nearest(mx, my) : null, tip = this.tip;
  if (!found) { tip.hidden = true; return; }
  var s = found.h.s, j = found.j, fig = this.fig, lines = [];
  this.tipPoint = found.h.index + ',' + j;
  if (s.name) lines.push(s.name);
  if (s.labels && s.labels[j]) lines.push(s.labels[j]);
  var xl = fig.x.label || 'x', yl = (s.y2 ? fig.y2.label : fig.y.label) || 'y';
  if (s.mark === 'cells' && s.xe && s.ye) {
    lines.push(xl + ': ' + fmtValue(s.x[j]) + ' .. ' + fmtValue(s.xe[j]));
    lines.push(yl + ': ' + fmtValue(s.y[j]) + ' .. ' + fmtValue(s.ye[j]));
    lines.push('count: ' + fmtValue(s.z[j]));
  } else if (s.mark === 'box') {
    lines.push(xl + ': ' + fmtValue(s.y[j]));
    if (s.box) lines.push('median ' + fmtValue(s.box[2]) + ', quartiles ' + fmtValue(s.box[1]) + ' .. ' + fmtValue(s.box[3]));
  } else if (s.mark === 'spans' && s.xe) {
    var duration = s.xd ? s.xd[j] : s.xe[j] - s.x[j];
    lines.push(xl + ': ' + fmtValue(s.x[j]) + ' .. ' + fmtValue(s.xe[j]) + ' (duration ' + fmtValue(duration) + ')');
    lines.push(yl + ': ' + fmtValue(s.y[j]));
  } else {
    lines.push(xl + ': ' + fmtValue(s.x[j]));
    lines.push(yl + ': ' + fmtValue(s.y[j]));
  }
  if (s.xlo && s.xhi && ok(s.xlo[j]) && ok(s.xhi[j])) lines.push('x interval: ' + fmtValue(s.xlo[j]) + ' .. ' + fmtValue(s.xhi[j]));
  if (s.lo && s.hi && ok(s.lo[j]) && ok(s.hi[j])) lines.push('interval: ' + fmtValue(s.lo[j]) + ' .. ' + fmtValue(s.hi[j]));
  tip.textContent = lines.join('\n');
  tip.hidden = false;
  var w = this.area.clientWidth, h = this.area.clientHeight;
  var left = mx + 14, top = my + 14;
  if (left + tip.offsetWidth > w) left = Math.max(0, mx - 14 - tip.offsetWidth);
  if (top + tip.offsetHeight > h) top = Math.max(0, my - 14 - tip.offsetHeight);
  tip.style.left = left + 'px';
  tip.style.top = top + 'px';
};

Chart.prototype.listen = function () {
  var self = this, canvas = this.canvas, drag = null;
  function pos(ev) {
    var r = canvas.getBoundingClientRect();
    return { x: ev.clientX - r.left, y: ev.clientY - r.top };
  }
  function clampToBox(p) {
    var b = self.box;
    return { x: Math.min(Math.max(p.x, b.x0), b.x1), y: Math.min(Math.max(p.y, b.yt), b.yb) };
  }
  canvas.addEventListener('mousedown', function (ev) {
    if (ev.button !== 0 || !self.scales) return;
    drag = clampToBox(pos(ev));
    ev.preventDefault();
  });
  canvas.addEventListener('mousemove', function (ev) {
    var p = pos(ev);
    if (drag) {
      var q = clampToBox(p), z = self.zoombox;
      z.hidden = false;
      z.style.left = Math.min(drag.x, q.x) + 'px'; z.style.top = Math.min(drag.y, q.y) + 'px';
      z.style.width = Math.abs(q.x - drag.x) + 'px'; z.style.height = Math.abs(q.y - drag.y) + 'px';
      self.tip.hidden = true;
      return;
    }
    self.showTip(p.x, p.y);
  });
  canvas.addEventListener('mouseleave', function () { self.tip.hidden = true; });
  window.addEventListener('mouseup', function (ev) {
    if (!drag) return;
    var q = clampToBox(pos(ev)), a = drag, sc = self.scales;
    drag = null;
    self.zoombox.hidden = true;
    var wide = Math.abs(q.x - a.x) > 4, tall = Math.abs(q.y - a.y) > 4;
    if (!sc || (!wide && !tall)) return;
    var lo = Math.min(a.x, q.x), hi = Math.max(a.x, q.x), top = Math.min(a.y, q.y), bottom = Math.max(a.y, q.y);
    self.view = {
      x: wide ? [sc.x.inv(lo), sc.x.inv(hi)] : sc.ex,
      y: tall ? [sc.y.inv(bottom), sc.y.inv(top)] : sc.ey,
      y2: sc.y2 ? (tall ? [sc.y2.inv(bottom), sc.y2.inv(top)] : sc.ey2) : null
    };
    self.draw();
  });
  canvas.addEventListener('dblclick', function () { self.view = null; self.draw(); });
};

function redrawAll() { charts.forEach(function (c) { c.draw(); }); }

Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (t) {
  try { makeSortable(t); } catch (e) { showError('A table cannot be sorted: ' + e.message); }
});

var figures = [];
try {
  figures = JSON.parse(document.getElementById('aiperf-figures').textContent);
  resolveColumns(figures);
} catch (e) {
  figures = [];
  showError('The report data cannot be read: ' + e.message);
}
var drawn = 0;
Array.prototype.forEach.call(document.querySelectorAll('section.figure-card'), function (section) {
  var fig = figures[+section.getAttribute('data-index')];
  try {
    if (!fig) throw new Error('no data for this figure');
    prepare(fig);
    charts.push(new Chart(section, fig));
    drawn++;
  } catch (e) {
    section.setAttribute('data-error', String(e.message));
    section.appendChild(el('p', 'error', 'This figure could not be drawn: ' + e.message));
    showError('Figure "' + section.getAttribute('data-id') + '": ' + e.message);
  }
});

var pending = false;
window.addEventListener('resize', function () {
  if (pending) return;
  pending = true;
  window.requestAnimationFrame(function () { pending = false; redrawAll(); });
});
if (window.matchMedia) {
  var dark = window.matchMedia('(prefers-color-scheme: dark)');
  if (dark.addEventListener) dark.addEventListener('change', redrawAll);
}
// Printed pages use the light colours: the canvases are redrawn with them before printing.
window.addEventListener('beforeprint', function () { root.classList.add('printing'); redrawAll(); });
window.addEventListener('afterprint', function () { root.classList.remove('printing'); redrawAll(); });

body.setAttribute('data-figures', String(drawn));
if (!errors.length) body.setAttribute('data-status', 'ok');
if (location.hash === '#selftest') selfTest();

)JS";
  // The IIFE is split across files only to keep each short: the table sorting
  // (html_tables_js.cpp) and selfTest (html_selftest.cpp) are function declarations inside it
  // (hoisted, so callable from above), and the joined text is one script (and one CSP hash).
  static const std::string kJs = std::string(kMain) + std::string(tables_js()) + std::string(selftest_js());
  return kJs;
}

}  // namespace aiperf::plot::html

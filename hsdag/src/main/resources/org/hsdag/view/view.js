// The live view: polls the run's state once a second and redraws; stops once the run is over.
(function () {
  'use strict';
  var NS = 'http://www.w3.org/2000/svg';
  var COLORS = ['#0072B2', '#E69F00', '#009E73', '#D55E00', '#CC79A7', '#56B4E9'];
  var PHASES = ['cost-model build', 'baselines', 'search', 'final race', 'completed'];
  var POLL_MS = 1000;

  function $(id) { return document.getElementById(id); }
  function text(id, s) { $(id).textContent = s; }
  function el(tag, attrs, parent) {
    var e = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) { parent.appendChild(e); }
    return e;
  }
  function svg(w, h) { return el('svg', { viewBox: '0 0 ' + w + ' ' + h, preserveAspectRatio: 'none' }); }
  function fmt(ms) {
    if (ms === undefined || ms === null || !isFinite(ms)) { return '–'; }
    return ms >= 100 ? ms.toFixed(1) + ' ms' : ms >= 1 ? ms.toFixed(3) + ' ms' : ms.toPrecision(3) + ' ms';
  }
  function replace(id, node) { var box = $(id); box.textContent = ''; if (node) { box.appendChild(node); } }

  function header(s) {
    var run = s.run || {};
    text('model', run.model_name || '');
    var devices = (run.devices || []).join(', ');
    text('backend', (run.backend ? run.backend + ' · ' + (run.profile || '') : '') +
      (devices ? ' · devices ' + devices : '') + (run.simulated ? ' · simulated numbers' : ''));
    var phase = s.phase || 'loading';
    var pill = $('phase');
    pill.textContent = phase;
    pill.className = 'pill' + (phase === 'completed' ? ' done' :
      (phase === 'failed' || phase === 'damaged' || phase === 'interrupted') ? ' bad' : '');
    document.body.setAttribute('data-phase', phase);
    text('live', s.live ? 'running · ' + (s.elapsed_s || 0).toFixed(1) + ' s' :
      s.phase === 'completed' ? 'finished in ' + (s.elapsed_s || 0).toFixed(1) + ' s' : '');
  }

  function progress(s) {
    var p = s.progress || {};
    var steps = $('steps');
    steps.textContent = '';
    var at = PHASES.indexOf(s.phase === 'writing the report' ? 'final race' : s.phase);
    PHASES.forEach(function (name, i) {
      var li = document.createElement('li');
      li.textContent = name === 'completed' ? 'result' : name;
      li.className = at < 0 ? '' : i < at || s.phase === 'completed' ? 'done' : i === at ? 'now' : '';
      steps.appendChild(li);
    });
    var frac = 0;
    var line = (p.measurements || 0) + ' search measurements';
    if (p.budget && p.budget < 1000000) {
      frac = Math.min(1, (p.measurements || 0) / p.budget);
      line = (p.measurements || 0) + ' of ' + p.budget + ' search measurements';
    } else if (p.time_limit_s) {
      frac = Math.min(1, (s.elapsed_s || 0) / p.time_limit_s);
      line += ', ' + Math.min(s.elapsed_s || 0, p.time_limit_s).toFixed(0) + ' of ' + p.time_limit_s + ' s';
    }
    if (s.phase === 'final race' || s.phase === 'completed' || s.phase === 'writing the report') { frac = 1; }
    if (p.final_measurements) { line += '; final race: ' + p.final_measurements + ' re-measurements'; }
    if (p.failures) { line += '; ' + p.failures + ' failed'; }
    $('bar-fill').style.width = (100 * frac).toFixed(1) + '%';
    text('progress-text', line);
    $('progress-text').setAttribute('data-measurements', String(p.measurements || 0));
  }

  function bestChart(s) {
    var pts = s.series || [], base = (s.baselines || []).filter(function (b) { return isFinite(b.ms); });
    // Drawn in the box's own pixels, so labels keep their size at any width.
    var W = Math.max(260, $('chart-best').clientWidth || 640), H = W < 500 ? 200 : 260, L = 52, R = 8, T = 10, B = 26;
    var g = svg(W, H);
    g.setAttribute('width', W);
    g.setAttribute('height', H);
    var ys = pts.filter(function (p) { return p.ms !== undefined; }).map(function (p) { return p.ms; })
      .concat(base.map(function (b) { return b.ms; }));
    if (!ys.length) {
      el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', fill: '#5b6670', 'font-size': 14 }, g)
        .textContent = 'no measurement yet';
      return g;
    }
    var lo = Math.min.apply(null, ys), hi = Math.max.apply(null, ys);
    var pad = (hi - lo) * 0.08 || hi * 0.05 || 1;
    lo = Math.max(0, lo - pad); hi += pad;
    var n = Math.max(1, pts.length ? pts[pts.length - 1].step + 1 : 1);
    function x(step) { return L + (W - L - R) * (n <= 1 ? 0.5 : step / (n - 1)); }
    function y(ms) { return T + (H - T - B) * (1 - (ms - lo) / (hi - lo)); }
    el('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: '#c4cbd1' }, g);
    [lo, (lo + hi) / 2, hi].forEach(function (v) {
      el('text', { x: L - 6, y: y(v) + 4, 'text-anchor': 'end', 'font-size': 11, fill: '#5b6670' }, g).textContent =
        fmt(v).replace(' ms', '');
    });
    el('text', { x: L, y: H - 6, 'font-size': 11, fill: '#5b6670' }, g).textContent = 'ms / search step';
    base.forEach(function (b, i) {
      el('line', { x1: L, x2: W - R, y1: y(b.ms), y2: y(b.ms), stroke: COLORS[(i + 1) % COLORS.length],
        'stroke-dasharray': '6 4', 'stroke-width': 1.5 }, g);
      el('text', { x: W - R - 2, y: y(b.ms) - 4, 'text-anchor': 'end', 'font-size': 11, fill: '#1d2329' }, g)
        .textContent = b.label + ' ' + fmt(b.ms);
    });
    pts.forEach(function (p) {
      if (p.ms !== undefined) {
        el('circle', { cx: x(p.step), cy: y(p.ms), r: 2.6, fill: p.cached ? '#c4cbd1' : '#9aa5ae' }, g);
      }
    });
    var d = '';
    pts.forEach(function (p) {
      if (p.best_ms !== undefined) { d += (d ? ' L' : 'M') + x(p.step).toFixed(1) + ' ' + y(p.best_ms).toFixed(1); }
    });
    if (d) { el('path', { d: d, fill: 'none', stroke: '#0072B2', 'stroke-width': 2 }, g); }
    return g;
  }

  function candidates(s) {
    var list = (s.candidates || []).filter(function (c) { return isFinite(c.ms); });
    var box = document.createElement('div');
    text('candidates-note', s.final ? 'final race: median and 95 % interval over ' + 'the interleaved rounds'
      : list.length && list[0].rounds ? 'final race so far: median of the rounds, range of their intervals'
      : 'fastest measured so far, each with its measurement\'s 95 % interval');
    if (!list.length) { box.textContent = 'none yet'; return box; }
    var lo = Infinity, hi = 0;
    list.forEach(function (c) {
      lo = Math.min(lo, isFinite(c.low_ms) ? c.low_ms : c.ms); hi = Math.max(hi, isFinite(c.high_ms) ? c.high_ms : c.ms);
    });
    lo = Math.max(0, lo - (hi - lo) * 0.05); hi += (hi - lo) * 0.05 || 1;
    function x(v) { return 100 * (v - lo) / (hi - lo); }
    list.forEach(function (c, i) {
      var row = document.createElement('div');
      row.className = 'cand' + (i === 0 ? ' best' : '');
      var name = document.createElement('span');
      name.className = 'name';
      name.textContent = c.label;
      name.title = c.label;
      var g = svg(100, 14);
      if (isFinite(c.low_ms) && isFinite(c.high_ms)) {
        el('rect', { x: x(c.low_ms), y: 4, width: Math.max(0.6, x(c.high_ms) - x(c.low_ms)), height: 6,
          fill: c.baseline ? '#E69F00' : '#56B4E9' }, g);
      }
      el('rect', { x: x(c.ms) - 0.4, y: 1, width: 0.8, height: 12, fill: '#1d2329' }, g);
      var ms = document.createElement('span');
      ms.className = 'ms';
      ms.textContent = fmt(c.ms);
      row.appendChild(name); row.appendChild(g); row.appendChild(ms);
      box.appendChild(row);
    });
    return box;
  }

  function trust(s) {
    var t = s.trust || {}, pts = t.points || [];
    var W = Math.max(220, Math.min(420, $('chart-trust').clientWidth || 300)), H = W, P = 34;
    var g = svg(W, H);
    g.setAttribute('width', W);
    g.setAttribute('height', H);
    if (!pts.length) {
      el('text', { x: W / 2, y: H / 2, 'text-anchor': 'middle', 'font-size': 13, fill: '#5b6670' }, g).textContent =
        'no prediction to compare yet';
      text('trust-text', t.summary || 'The cost model\'s figure for each placement, before it was measured.');
      return g;
    }
    var all = [];
    pts.forEach(function (p) { all.push(p.ms, p.predicted_ms); });
    var lo = Math.min.apply(null, all) * 0.95, hi = Math.max.apply(null, all) * 1.05;
    function sx(v) { return P + (W - P - 8) * (v - lo) / (hi - lo); }
    function sy(v) { return H - P - (H - P - 8) * (v - lo) / (hi - lo); }
    el('line', { x1: sx(lo), y1: sy(lo), x2: sx(hi), y2: sy(hi), stroke: '#c4cbd1', 'stroke-dasharray': '4 3' }, g);
    el('text', { x: W / 2, y: H - 8, 'text-anchor': 'middle', 'font-size': 11, fill: '#5b6670' }, g).textContent =
      'predicted (ms)';
    [lo, hi].forEach(function (v, i) {
      var label = fmt(v).replace(' ms', '');
      el('text', { x: sx(v), y: H - P + 14, 'text-anchor': i ? 'end' : 'start', 'font-size': 10, fill: '#5b6670' }, g)
        .textContent = label;
      // Turned to read upwards: the low label starts at its value, the high one ends at it.
      el('text', { x: P - 4, y: sy(v), 'text-anchor': i ? 'end' : 'start', 'font-size': 10, fill: '#5b6670',
        transform: 'rotate(-90 ' + (P - 4) + ' ' + sy(v) + ')' }, g).textContent = label;
    });
    el('text', { x: 12, y: H / 2, 'font-size': 11, fill: '#5b6670', transform: 'rotate(-90 12 ' + H / 2 + ')',
      'text-anchor': 'middle' }, g).textContent = 'measured (ms)';
    pts.forEach(function (p) {
      var c = el('circle', { cx: sx(p.predicted_ms), cy: sy(p.ms), r: 3.5, fill: '#0072B2', 'fill-opacity': 0.7 }, g);
      el('title', {}, c).textContent = p.label + ': predicted ' + fmt(p.predicted_ms) + ', measured ' + fmt(p.ms);
    });
    var errs = pts.map(function (p) { return Math.abs(p.predicted_ms / p.ms - 1); }).sort(function (a, b) { return a - b; });
    var median = errs[Math.floor(errs.length / 2)];
    text('trust-text', pts.length + ' measurements: the uncorrected cost model is off by ' + (100 * median).toFixed(median < 0.1 ? 1 : 0)
      + ' % (median)' + (t.summary ? '. ' + t.summary : ''));
    return g;
  }

  function placement(s) {
    var p = s.placement || {}, box = document.createElement('div');
    if (!p.assignment) { text('placement-label', 'no placement measured yet'); return box; }
    text('placement-label', (s.final ? 'chosen: ' : 'best so far: ') + p.label + ' · ops in topological order');
    var devs = p.devices || Object.keys(p.ops_per_device || {});
    var n = p.assignment.length, ALPHA = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_';
    devs.forEach(function (name, d) {
      var row = document.createElement('div');
      row.className = 'dev';
      var label = document.createElement('span');
      label.textContent = name;
      var g = svg(n, 18), count = 0, runStart = -1, ch = ALPHA.charAt(d);
      for (var i = 0; i <= n; i++) {
        var on = i < n && p.assignment.charAt(i) === ch;
        if (on) { count++; if (runStart < 0) { runStart = i; } }
        if (!on && runStart >= 0) {
          el('rect', { x: runStart, y: 0, width: i - runStart, height: 18, fill: COLORS[d % COLORS.length] }, g);
          runStart = -1;
        }
      }
      var c = document.createElement('span');
      c.className = 'n';
      c.textContent = String(count);
      row.appendChild(label); row.appendChild(g); row.appendChild(c);
      box.appendChild(row);
    });
    return box;
  }

  function load(s) {
    var l = s.load || {};
    var p = $('load-text');
    p.className = l.flagged ? 'warn' : '';
    if (l.summary) { p.textContent = l.summary; return; }
    if (!l.measured) { p.textContent = 'no load reading (simulated, or no real measurement yet)'; return; }
    p.textContent = l.flagged ? l.flagged + ' of ' + l.measured + ' measurements taken under foreign load (up to '
      + (l.max_foreign_cores || 0).toFixed(1) + ' cores busy with other processes): their figures are less trustworthy'
      : 'no measurement disturbed by other processes (' + l.measured + ' checked)';
  }

  function finalPick(s) {
    var f = s.final, box = $('final');
    if (!f) { box.hidden = true; return; }
    box.hidden = false;
    text('final-decision', f.decision || f.status || '');
    var b = f.best || {};
    var line = b.label ? 'picked ' + b.label + ': ' + fmt(b.latency_ms) + ' (95 % interval ' + fmt(b.ci95_low_ms)
      + ' – ' + fmt(b.ci95_high_ms) + ')' : '';
    if (!b.baseline && b.speedup_vs_best_single_device) { line += ', ' + b.speedup_vs_best_single_device + '× the best single device'; }
    text('final-best', line + (f.simulated ? ' · simulated' : ''));
    text('final-stop', f.stop_reason ? 'stopped: ' + f.stop_reason : '');
    $('final-report').hidden = !f.report;
  }

  function render(s) {
    header(s);
    if (s.error) { text('footer', s.error); }
    progress(s);
    replace('chart-best', bestChart(s));
    replace('candidates', candidates(s));
    replace('chart-trust', trust(s));
    replace('placement', placement(s));
    load(s);
    finalPick(s);
  }

  var last = null;
  window.addEventListener('resize', function () { if (last) { render(last); } });

  function poll() {
    fetch('api/state', { cache: 'no-store' }).then(function (r) { return r.json(); }).then(function (s) {
      last = s;
      render(s);
      if (s.final || (s.live === false && ['interrupted', 'failed', 'damaged'].indexOf(s.phase) >= 0)) { return; }
      setTimeout(poll, POLL_MS);
    }).catch(function () {
      text('live', 'the view\'s server has stopped; hsdag view RUN_DIR serves this run again');
    });
  }

  poll();
}());

/**
 * The cases × variants matrix of the HTML report: part of the page script's closure (it uses `el`, `$`, `cases`,
 * `renderCase`, `showCase` …). One row per (suite, case), one column per variant; each cell aggregates the trials
 * as the baselines do (failed if any trial failed, else errored if any errored). Rows are virtualized like the case
 * table and follow its filters. A cell opens the transcript of its first trial with the cell's status; a case name
 * shows two variants side by side.
 */
export const MATRIX_SCRIPT = String.raw`
  function variantNames() {
    var names = [], seen = new Set();
    function add(name) { if (name !== undefined && !seen.has(name)) { seen.add(name); names.push(name); } }
    header.run.suites.forEach(function (s) { add(s.variant); });
    cases.forEach(function (c) { add(c.vr); });
    return names;
  }

  function buildMatrix() {
    var rows = [], byKey = new Map();
    cases.forEach(function (c, i) {
      if (c.vr === undefined) return;
      var key = c.s + '\u0000' + c.id, row = byKey.get(key);
      if (!row) { row = { s: c.s, id: c.id, cells: new Map() }; byKey.set(key, row); rows.push(row); }
      var list = row.cells.get(c.vr);
      if (!list) row.cells.set(c.vr, list = []);
      list.push(i);
    });
    return { rows: rows, shown: rows, drawn: '', open: null };
  }

  function cellOf(list) {
    var passes = 0, graded = 0, errored = 0, scoreSum = 0, scored = 0;
    list.forEach(function (i) {
      var c = cases[i];
      if (c.st === 'errored') errored++;
      else if (c.st !== 'skipped') {
        graded++;
        if (c.st === 'passed') passes++;
        if (c.sc !== undefined) { scoreSum += c.sc; scored++; }
      }
    });
    var st = graded > passes ? 'failed' : errored > 0 ? 'errored' : graded > 0 ? 'passed' : 'skipped';
    // passes of the graded trials, as the baselines count them: an errored or skipped trial is neither
    var text = st + (list.length > 1 && graded > 0 ? ' ' + passes + '/' + graded : '') + (scored ? ' · ' + (scoreSum / scored).toFixed(2) : '');
    // the run a click opens: the first trial with the cell's status, so its transcript explains the cell
    var shows = list.filter(function (i) { return cases[i].st === st; })[0];
    return { st: st, text: text, shows: shows === undefined ? list[0] : shows };
  }

  function variantSelect(id, label, value) {
    var wrap = el('label', '', label + ' '), select = el('select');
    select.id = id;
    variants.forEach(function (v) { var o = el('option', '', v); o.value = v; select.appendChild(o); });
    select.value = value;
    select.addEventListener('change', function () { if (matrix.open) showSideBySide(matrix.open); });
    wrap.appendChild(select);
    return wrap;
  }

  function renderMatrix() {
    matrix = buildMatrix();
    var box = el('section');
    box.id = 'matrix';
    box.setAttribute('aria-label', 'Cases by variant');
    box.appendChild(el('h2', '', 'Cases × variants'));
    var controls = el('p', 'hint', 'Click a cell for its transcript, or a case to see two variants side by side: ');
    controls.appendChild(variantSelect('side-a', 'A', variants[0]));
    controls.appendChild(document.createTextNode(' '));
    controls.appendChild(variantSelect('side-b', 'B', variants[1]));
    box.appendChild(controls);
    var table = el('div', 'mtable');
    table.setAttribute('role', 'table');
    var head = el('div', 'mrow head');
    head.setAttribute('role', 'row');
    head.appendChild(el('span', '', 'Case'));
    variants.forEach(function (v) { head.appendChild(el('span', '', v)); });
    var viewport = el('div'), spacer = el('div'), rows = el('div');
    viewport.id = 'mviewport'; spacer.id = 'mspacer'; rows.id = 'mrows';
    viewport.tabIndex = 0;
    viewport.appendChild(spacer); viewport.appendChild(rows);
    table.appendChild(head); table.appendChild(viewport);
    box.appendChild(table);
    $('table').parentNode.insertBefore(box, $('table'));
    var columns = 'minmax(180px, 2fr) repeat(' + variants.length + ', minmax(110px, 1fr))';
    head.style.gridTemplateColumns = columns;
    matrix.columns = columns;
    viewport.addEventListener('scroll', drawMatrix, { passive: true });
    window.addEventListener('resize', function () { matrix.drawn = ''; drawMatrix(); });
    rows.addEventListener('click', function (e) {
      var cell = e.target.closest('[data-index]');
      if (cell) { showCase(Number(cell.dataset.index)); return; }
      var name = e.target.closest('.mrow');
      if (name && e.target.closest('.case')) showSideBySide(matrix.shown[Number(name.dataset.row)]);
    });
  }

  function filterMatrix() {
    var visible = new Uint8Array(cases.length);
    shown.forEach(function (i) { visible[i] = 1; });
    matrix.shown = matrix.rows.filter(function (row) {
      for (const list of row.cells.values()) if (list.some(function (i) { return visible[i] === 1; })) return true;
      return false;
    });
    $('mspacer').style.height = matrix.shown.length * ROW + 'px';
    $('mviewport').scrollTop = 0;
    matrix.drawn = '';
    drawMatrix();
  }

  function drawMatrix() {
    var viewport = $('mviewport');
    var first = Math.max(0, Math.floor(viewport.scrollTop / ROW) - OVERSCAN);
    var last = Math.min(matrix.shown.length, Math.ceil((viewport.scrollTop + viewport.clientHeight) / ROW) + OVERSCAN);
    var key = first + ':' + last;
    if (key === matrix.drawn) return;
    matrix.drawn = key;
    var rows = $('mrows');
    rows.textContent = '';
    rows.style.top = first * ROW + 'px';
    var fragment = document.createDocumentFragment();
    for (var n = first; n < last; n++) {
      var row = matrix.shown[n], line = el('div', 'mrow' + (n % 2 ? ' odd' : ''));
      line.setAttribute('role', 'row');
      line.dataset.row = String(n);
      line.style.gridTemplateColumns = matrix.columns;
      var name = el('span', 'case', row.s + ' › ' + row.id);
      name.title = 'Show ' + row.id + ' side by side';
      line.appendChild(name);
      variants.forEach(function (v) {
        var list = row.cells.get(v);
        if (!list) { line.appendChild(el('span', 'none', '—')); return; }
        var cell = cellOf(list), span = el('span', 'cell st ' + cell.st, cell.text);
        span.dataset.index = String(cell.shows);
        span.dataset.variant = v;
        line.appendChild(span);
      });
      fragment.appendChild(line);
    }
    rows.appendChild(fragment);
  }

  function showSideBySide(row) {
    matrix.open = row;
    var pick = [$('side-a').value, $('side-b').value], detail = $('detail');
    detail.textContent = '';
    detail.appendChild(el('h2', '', row.s + ' › ' + row.id + ': ' + pick[0] + ' and ' + pick[1] + ' side by side'));
    var sides = el('div', 'sides');
    pick.forEach(function (v) {
      var side = el('div', 'side'), list = row.cells.get(v);
      side.dataset.variant = v;
      if (list) renderCase(side, cases[cellOf(list).shows], v);
      else { side.appendChild(el('h2', '', v)); side.appendChild(el('p', 'hint', 'did not run this case')); }
      sides.appendChild(side);
    });
    detail.appendChild(sides);
  }
`

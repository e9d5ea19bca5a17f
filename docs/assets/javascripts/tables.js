/*
 * Sortable tables, following Material for MkDocs' documented Tablesort recipe
 * ("Data tables" > "Sortable tables"): run on every page load through `document$`, so that it also
 * works with instant navigation. Loaded, deferred and in this order, only on pages that have a
 * table (generator/theme/main.html):
 *   assets/javascripts/vendor/tablesort.min.js
 *   assets/javascripts/vendor/tablesort.number.min.js
 *   assets/javascripts/tables.js
 *
 * Notes checked against the tablesort 5.7.1 source (src/tablesort.js, src/sorts/tablesort.number.js):
 *
 * - Tablesort reads a cell's `data-sort` attribute instead of its text when the attribute is present
 *   (getInnerText: `if (el.hasAttribute(sortAttribute)) return el.getAttribute(sortAttribute)`, with
 *   `sortAttribute` defaulting to "data-sort"). Generated cells carry `data-sort="<number>"`, so a
 *   cell showing "2039 GB/s" sorts on "2039", and the plain "number" parser recognises it.
 * - The sort method of a column is picked from the first up to three non-empty cells: the first
 *   registered parser whose pattern matches all of them wins; otherwise a case-insensitive string
 *   sort. A header may force one with `data-sort-method="figure"` (or "number", or "none").
 * - tablesort.number matches "1,008" and "19.5 TFLOPS" (its currency-prefix pattern only needs a
 *   leading number followed by "," or "." and digits), but NOT an integer followed by a unit such as
 *   "2039 GB/s", and not a placeholder such as "—". The "figure" parser below covers those text
 *   cells (hand-written tables, cells without `data-sort`), so a unit after a number never falls
 *   back to string order ("900" < "1800" as strings).
 */
(function () {
  "use strict";

  if (typeof Tablesort === "undefined") {
    return; // vendor script missing: leave tables as they are
  }

  // Optional "about" sign, a number with thousands separators and decimals, then either nothing or a
  // unit starting with a letter, µ/μ, %, ×, / or a CJK character. Dates ("2026-11-30") and ratios
  // ("2:4") do not match and keep the default string sort.
  var FIGURE = /^[~≈约]?\s*([-+−]?\d[\d,]*(?:\.\d+)?)(?:\s*(?:[A-Za-zµμ%×\/]|[\u3400-\u9fff]).*)?$/;
  var EMPTY = /^(?:|[—–-]|n\/a|N\/A|无|不适用)$/;

  function figureValue(text) {
    var t = String(text).trim();
    if (EMPTY.test(t)) {
      return null;
    }
    var m = FIGURE.exec(t);
    if (!m) {
      return null;
    }
    var v = parseFloat(m[1].replace(/,/g, "").replace("−", "-"));
    return isNaN(v) ? null : v;
  }

  Tablesort.extend(
    "figure",
    function (item) {
      var t = String(item).trim();
      return EMPTY.test(t) || FIGURE.test(t);
    },
    function (a, b) {
      // Same convention as tablesort.number (b - a); an empty cell counts as smaller than any number.
      var x = figureValue(a);
      var y = figureValue(b);
      if (x === null && y === null) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      return y - x;
    }
  );

  document$.subscribe(function () {
    var tables = document.querySelectorAll("article .data-table table, article table:not([class])");
    tables.forEach(function (table) {
      if (table.hasAttribute("data-tablesort")) {
        return;
      }
      table.setAttribute("data-tablesort", "");
      new Tablesort(table);
    });
  });
})();

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

  // The words a cell may hold around or instead of a figure, in the page's language (Material
  // writes the theme's language, "zh" or "en", into <html lang>); Chinese for any other.
  var WORDS = {
    zh: { about: "约", empty: ["无", "不适用"] },
    en: { about: "about ", empty: ["none", "not applicable"] }
  };
  var patterns = {};

  // Optional "about" sign or word, a number with thousands separators and decimals, then either
  // nothing or a unit starting with a letter, µ/μ, %, ×, / or a CJK character. Dates
  // ("2026-11-30") and ratios ("2:4") do not match and keep the default string sort. EMPTY: a
  // cell that holds no figure.
  function pattern() {
    var lang = (document.documentElement.lang || "").toLowerCase().split("-")[0];
    lang = WORDS[lang] ? lang : "zh";
    if (!patterns[lang]) {
      var words = WORDS[lang];
      patterns[lang] = {
        FIGURE: new RegExp("^(?:[~≈]|" + words.about + ")?\\s*([-+−]?\\d[\\d,]*(?:\\.\\d+)?)" +
                           "(?:\\s*(?:[A-Za-zµμ%×\\/]|[\\u3400-\\u9fff]).*)?$"),
        EMPTY: new RegExp("^(?:|[—–-]|n\\/a|N\\/A|" + words.empty.join("|") + ")$")
      };
    }
    return patterns[lang];
  }

  function figureValue(text) {
    var t = String(text).trim();
    var p = pattern();
    if (p.EMPTY.test(t)) {
      return null;
    }
    var m = p.FIGURE.exec(t);
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
      var p = pattern();
      return p.EMPTY.test(t) || p.FIGURE.test(t);
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

/*
 * A link to a table row (gpus/#h100-sxm5-80gb). A long data table scrolls inside its own box,
 * under a header row that sticks to the box's top (extra.css), so the browser's own jump can
 * leave the row under that header, or the header under the site's bar. Here the box scrolls the
 * row to just below its header, and the page brings the box's top to just below the site's bar
 * (the box's scroll-margin-top). A link to anything else (a heading) jumps again once the
 * tables have their height (layOutTables).
 *
 * And folds (<details>) that a link opens: a long table's (generator/render/runs.py, FOLD_ROWS)
 * when the link is to one of its rows (Chromium opens it itself on the jump, other browsers may
 * not), and the fold under a heading that names it in data-fold-for (the flowchart's branches,
 * whose answers and reasons are folded under their heading) when the link is to the heading.
 * They live here because every page with a fold has a table in it, so this script is there.
 * Printing opens every fold: on paper nobody can open one.
 */
(function () {
  "use strict";

  function openFoldsFor(id) {
    document.querySelectorAll("details[data-fold-for]").forEach(function (fold) {
      if (fold.getAttribute("data-fold-for") === id) {
        fold.open = true;
      }
    });
  }

  // Tables are laid out at a placeholder height until they come near the screen
  // (content-visibility, extra.css), so a jump measured past them, or up to a page end they make,
  // lands off once they grow or shrink: lay them all out before jumping. Only when the address
  // has a fragment, so a plain visit keeps the skipped layout.
  function layOutTables() {
    document.querySelectorAll(".md-typeset .data-table, .md-typeset .md-typeset__scrollwrap").forEach(function (box) {
      box.style.contentVisibility = "visible";
    });
  }

  function revealTarget() {
    var id;
    try {
      id = decodeURIComponent(location.hash.slice(1));
    } catch (malformed) {  // "#%E0%A4%A": no element has that id
      return;
    }
    if (!id) {
      return;
    }
    openFoldsFor(id);
    var target = document.getElementById(id);
    if (!target) {
      return;
    }
    layOutTables();
    if (target.tagName !== "TR") {  // a heading: jump again, now that the tables have their height
      target.scrollIntoView({ block: "start" });
      return;
    }
    var row = target;
    var fold = row.closest("details");
    if (fold && !fold.open) {
      fold.open = true;
    }
    var box = row.closest(".data-table .md-typeset__scrollwrap");
    if (!box) {
      return;
    }
    var head = row.closest("table").tHead;
    var below = row.getBoundingClientRect().top - box.getBoundingClientRect().top;
    box.scrollTop += below - (head ? head.getBoundingClientRect().height : 0);
    box.scrollLeft = 0;  // the jump may also have scrolled it sideways, past the padding before the table
    box.scrollIntoView({ block: "start" });
  }

  // After the browser's own jump to the fragment, which comes once the page has loaded.
  function afterJump() {
    window.requestAnimationFrame(function () {
      window.requestAnimationFrame(revealTarget);
    });
  }

  if (document.readyState === "complete") {
    afterJump();
  } else {
    window.addEventListener("load", afterJump);
  }
  window.addEventListener("hashchange", revealTarget);
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll("article details:not([open])").forEach(function (fold) {
      fold.open = true;
    });
  });
})();

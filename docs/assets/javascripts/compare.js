/* The comparison page (generator/render/compare.py): every item has its column in the page; this
   shows the two to four the reader ticks and keeps them in the address (?gpus=a,b&nodes=c,d), so
   that a shared link opens the same comparison. Ids are read from the page's own checkboxes: an
   id in the address that is not one of them is left out, and the page says so. Nothing from the
   address is ever written into the page but through textContent. */
(function () {
  "use strict";

  // The script's own sentences, in the page's language (Material writes the theme's language,
  // "zh" or "en", into <html lang>); Chinese for any other.
  var WORDS = {
    zh: {
      ignored: function (n) { return "地址里有 " + n + " 项不在这张表里或超出四项，已略去。"; },
      tooFew: "至少选两项才能对比。"
    },
    en: {
      ignored: function (n) {
        return "Left out " + n + (n === 1 ? " item" : " items") + " of the address: not in this table, or more than four.";
      },
      tooFew: "Pick at least two items to compare."
    }
  };

  function words() {
    var lang = (document.documentElement.lang || "").toLowerCase().split("-")[0];
    return WORDS[lang] || WORDS.zh;
  }

  function chosenFromAddress(kind, valid) {
    var raw = new URLSearchParams(window.location.search).get(kind);
    if (raw === null) { return null; }
    var wanted = raw.split(",").filter(function (s) { return s !== ""; });
    var kept = wanted.filter(function (id, i) { return valid.indexOf(id) >= 0 && wanted.indexOf(id) === i; });
    return { kept: kept, dropped: wanted.length - kept.length };
  }

  function writeAddress(boxes) {
    var params = new URLSearchParams(window.location.search);
    boxes.forEach(function (box) {
      params.set(box.dataset.kind, box.chosen.join(","));
    });
    var query = params.toString().replace(/%2C/g, ",");
    window.history.replaceState(null, "", window.location.pathname + (query ? "?" + query : "") + window.location.hash);
  }

  function show(box) {
    var chosen = box.chosen, most = Number(box.dataset.most);
    box.querySelectorAll("[data-col]").forEach(function (cell) {
      cell.classList.toggle("compare-off", chosen.indexOf(cell.dataset.col) < 0);
    });
    box.querySelectorAll("input[type=checkbox]").forEach(function (input) {
      input.checked = chosen.indexOf(input.value) >= 0;
      input.disabled = !input.checked && chosen.length >= most;
    });
  }

  function setUp(box, boxes) {
    var inputs = Array.prototype.slice.call(box.querySelectorAll("input[type=checkbox]"));
    var valid = inputs.map(function (input) { return input.value; });
    var most = Number(box.dataset.most);
    var note = box.querySelector(".compare-note");
    var fromAddress = chosenFromAddress(box.dataset.kind, valid);
    var preselected = box.dataset.preselected.split(",").filter(function (s) { return s !== ""; });
    box.chosen = fromAddress && fromAddress.kept.length ? fromAddress.kept.slice(0, most) : preselected;
    var ignored = fromAddress ? fromAddress.dropped + Math.max(0, fromAddress.kept.length - most) : 0;
    note.textContent = ignored ? words().ignored(ignored) : "";
    inputs.forEach(function (input) {
      input.addEventListener("change", function () {
        if (input.checked) { box.chosen = box.chosen.concat([input.value]); }
        else { box.chosen = box.chosen.filter(function (id) { return id !== input.value; }); }
        note.textContent = box.chosen.length < 2 ? words().tooFew : "";
        show(box);
        writeAddress(boxes);
      });
    });
    show(box);
    box.classList.add("compare-ready");
  }

  function start() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll(".compare[data-kind]"));
    boxes.forEach(function (box) { setUp(box, boxes); });
    writeAddress(boxes);
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
  else { start(); }
})();

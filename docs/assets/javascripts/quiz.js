/*
 * The selection tree as a questionnaire, for phones. The flowchart page holds an empty
 * <div class="quiz" data-tree="../data/tree.json">; this script fetches that file (written by the
 * generator from specs/selection/, the same tree the drawing and `python -m generator recommend`
 * use), asks one question at a time with a button per answer, and ends with the recommendation the
 * command gives for those answers, its estimate when the tree carries one, and a link to the leaf's
 * full section below.
 *
 * Progressive enhancement: the CSS shows the questionnaire (and hides the drawing) only at
 * widths up to 760 px and only once this script has marked it ready, so without JavaScript, or
 * if the file does not load, the page keeps its drawing and its text sections.
 *
 * Spec text reaches the page only through textContent and attribute setters, never as markup.
 */
(function () {
  "use strict";

  var SEVERITY = { critical: "严重", warning: "警告", tip: "建议", info: "说明" };
  var BOTTLENECK = { memory: "显存", compute: "计算", intra_node: "机内互连", network: "节点间网络" };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function link(text, href) {
    if (!href) return el("span", "", text);
    var a = el("a", "", text);
    a.setAttribute("href", href);
    return a;
  }

  function button(text, onClick, className) {
    var b = el("button", "md-button" + (className ? " " + className : ""), text);
    b.setAttribute("type", "button");
    b.addEventListener("click", onClick);
    return b;
  }

  function number(value, digits) {
    return typeof value === "number" && isFinite(value) ? value.toFixed(digits) : null;
  }

  // One row of the estimate table, or nothing when the figure is absent.
  function row(tbody, label, value) {
    if (value === null || value === undefined || value === "") return;
    var tr = el("tr");
    tr.appendChild(el("td", "", label));
    tr.appendChild(el("td", "num", value));
    tbody.appendChild(tr);
  }

  // The cost model's estimate for the leaf (keys as `python -m generator estimate --format json`
  // writes them); each line only when the estimate has it.
  function estimateBlock(estimate) {
    var block = el("div", "quiz-estimate");
    block.appendChild(el("h4", "", "按成本模型估算"));
    var table = el("table");
    var tbody = el("tbody");
    var memory = estimate.memory_per_gpu_gb || {};
    var total = number(memory.total_gb, 1);
    var usable = number(memory.usable_gb, 1);
    if (total !== null) row(tbody, "每 GPU 显存", total + " GB" + (usable !== null ? "（可用 " + usable + " GB）" : ""));
    if (typeof estimate.fits === "boolean") row(tbody, "放得下吗", estimate.fits ? "放得下" : "放不下");
    var step = number(estimate.step_time_s, 2);
    if (step !== null) row(tbody, "单步时间", step + " s");
    var share = number(typeof estimate.comm_share === "number" ? estimate.comm_share * 100 : null, 1);
    if (share !== null) row(tbody, "通信占比", share + "%");
    if (estimate.bottleneck) row(tbody, "瓶颈", BOTTLENECK[estimate.bottleneck] || estimate.bottleneck);
    table.appendChild(tbody);
    block.appendChild(table);
    if (estimate.note) block.appendChild(el("p", "", estimate.note));
    return block;
  }

  function Quiz(box, tree) {
    this.box = box;
    this.tree = tree;
    this.steps = []; // [{question: id, answer: index}], in the order asked
  }

  Quiz.prototype.current = function () {
    var id = this.tree.root;
    for (var i = 0; i < this.steps.length; i++) {
      id = this.tree.nodes[this.steps[i].question].answers[this.steps[i].answer].next;
    }
    return id;
  };

  Quiz.prototype.answer = function (index) {
    this.steps.push({ question: this.current(), answer: index });
    this.render(true);
  };

  Quiz.prototype.back = function () {
    this.steps.pop();
    this.render(true);
  };

  Quiz.prototype.restart = function () {
    this.steps = [];
    this.render(true);
  };

  /** The answers so far in the page's address (`?answers=0.2.1`, each the answer's index), so that
   * a reader can share where they stand; replaced, not pushed: the back button leaves the page. */
  Quiz.prototype.remember = function () {
    if (!window.history || !window.history.replaceState) return;
    var url = new URL(window.location.href);
    if (this.steps.length) {
      url.searchParams.set("answers", this.steps.map(function (s) { return s.answer; }).join("."));
    } else {
      url.searchParams.delete("answers");
    }
    window.history.replaceState(window.history.state, "", url.href);
  };

  /** Replays answers from the address, as far as they name answers the tree has. */
  Quiz.prototype.restore = function () {
    var given = new URL(window.location.href).searchParams.get("answers");
    if (!given) return;
    var parts = given.split(".");
    for (var i = 0; i < parts.length; i++) {
      var node = this.tree.nodes[this.current()];
      var index = /^\d+$/.test(parts[i]) ? Number(parts[i]) : -1;
      if (!node || node.kind !== "question" || index < 0 || index >= node.answers.length) break;
      this.steps.push({ question: this.current(), answer: index });
    }
  };

  Quiz.prototype.render = function (moveFocus) {
    var self = this;
    this.remember();
    var id = this.current();
    var node = this.tree.nodes[id];
    var panel = el("div", "quiz-panel");
    panel.setAttribute("data-node", id);
    if (!node) {
      panel.appendChild(el("p", "", "这条路径没有下文；请返回上一步。"));
    } else if (node.kind === "question") {
      panel.appendChild(el("p", "quiz-progress", "第 " + (this.steps.length + 1) + " 问"));
      var heading = el("h3", "quiz-question", node.ask);
      panel.appendChild(heading);
      var answers = el("div", "quiz-answers");
      answers.setAttribute("role", "group");
      answers.setAttribute("aria-label", node.ask);
      node.answers.forEach(function (answer, index) {
        answers.appendChild(button(answer.label, function () { self.answer(index); }, "quiz-answer"));
      });
      panel.appendChild(answers);
    } else {
      panel.appendChild(this.result(node));
    }
    panel.appendChild(this.navigation());
    this.box.replaceChildren(panel);
    if (moveFocus) {
      // Keyboard and screen-reader users land on the new question or result, not on a button
      // that no longer exists.
      var target = panel.querySelector("h3");
      target.setAttribute("tabindex", "-1");
      target.focus();
    }
  };

  Quiz.prototype.navigation = function () {
    var self = this;
    var nav = el("div", "quiz-nav");
    var back = button("上一步", function () { self.back(); }, "quiz-back");
    var restart = button("重新开始", function () { self.restart(); }, "quiz-restart");
    back.disabled = restart.disabled = this.steps.length === 0;
    nav.appendChild(back);
    nav.appendChild(restart);
    return nav;
  };

  Quiz.prototype.result = function (leaf) {
    var tree = this.tree;
    var data = leaf.recommendation;
    var out = el("div", "quiz-result");
    out.appendChild(el("p", "quiz-progress", "推荐"));
    out.appendChild(el("h3", "quiz-title", data.title));

    var path = el("ol", "quiz-path");
    this.steps.forEach(function (step) {
      var question = tree.nodes[step.question];
      path.appendChild(el("li", "", question.ask + " → " + question.answers[step.answer].label));
    });
    out.appendChild(path);

    var picks = data.picks;
    if (picks) {
      var table = el("table", "quiz-picks");
      var tbody = el("tbody");
      Object.keys(tree.pick_labels).forEach(function (field) {
        var pick = picks[field];
        if (!pick) return;
        var tr = el("tr");
        tr.setAttribute("data-field", field);
        tr.appendChild(el("td", "", tree.pick_labels[field]));
        var cell = el("td");
        cell.appendChild(link(pick.name, pick.href));
        tr.appendChild(cell);
        tbody.appendChild(tr);
      });
      var parallel = (data.parallelism || []).map(function (p) { return tree.parallelism_labels[p] || p; });
      if (parallel.length) {
        var tr = el("tr");
        tr.appendChild(el("td", "", "并行方式"));
        tr.appendChild(el("td", "", parallel.join("、")));
        tbody.appendChild(tr);
      }
      table.appendChild(tbody);
      out.appendChild(table);
    } else {
      out.appendChild(el("p", "quiz-none", "按成本模型，这一支没有放得下的配置。"));
    }

    if (data.estimate) out.appendChild(estimateBlock(data.estimate));

    if (data.reasons && data.reasons.length) {
      out.appendChild(el("h4", "", "理由"));
      var reasons = el("ul", "quiz-reasons");
      data.reasons.forEach(function (reason) { reasons.appendChild(el("li", "", reason)); });
      out.appendChild(reasons);
    }
    if (data.pitfalls && data.pitfalls.length) {
      out.appendChild(el("h4", "", "注意"));
      var pitfalls = el("ul", "quiz-pitfalls");
      data.pitfalls.forEach(function (pitfall) {
        var li = el("li");
        li.appendChild(el("span", "quiz-severity", "[" + (SEVERITY[pitfall.severity] || pitfall.severity) + "] "));
        li.appendChild(link(pitfall.title, pitfall.href));
        pitfalls.appendChild(li);
      });
      out.appendChild(pitfalls);
    }
    (data.conflicts || []).forEach(function (conflict) {
      out.appendChild(el("p", "quiz-conflict", "与分档表 " + conflict.table + " 不一致：" + conflict.note));
    });
    var more = el("p", "quiz-more");
    more.appendChild(link("这条推荐的完整说明", leaf.href));
    out.appendChild(more);
    return out;
  };

  function start(box) {
    if (box.getAttribute("data-quiz-state")) return;
    box.setAttribute("data-quiz-state", "loading");
    fetch(box.getAttribute("data-tree"))
      .then(function (response) {
        if (!response.ok) throw new Error(response.status + " " + response.url);
        return response.json();
      })
      .then(function (tree) {
        if (!tree.nodes || !tree.nodes[tree.root]) throw new Error("tree.json has no root");
        var quiz = new Quiz(box, tree);
        quiz.restore();
        quiz.render(false);
        box.setAttribute("data-quiz-state", "ready");
        box.classList.add("quiz-ready"); // from here on, narrow screens show this instead of the drawing
      })
      .catch(function (error) {
        box.setAttribute("data-quiz-state", "failed");
        if (window.console) console.warn("questionnaire unavailable, the drawing stays:", error);
      });
  }

  function startAll() {
    document.querySelectorAll(".quiz[data-tree]").forEach(start);
  }

  if (typeof document$ !== "undefined") {
    document$.subscribe(startAll); // Material's page-load stream (also fires on instant navigation)
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", startAll);
  } else {
    startAll();
  }
})();

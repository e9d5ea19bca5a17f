/*
 * The selection tree as a questionnaire, for phones. The flowchart page holds an empty
 * <div class="quiz" data-tree="../data/tree.json" data-costmodel="../data/costmodel.json"
 * data-planner="../assets/javascripts/costmodel.js">; this script fetches the tree (written by the
 * generator from specs/selection/) and asks one question at a time; the planner (costmodel.js, and
 * the cost model's inputs with the market data) is fetched once the reader starts answering, or
 * when an answer is asked for at once, not with the page: it is most of the page's weight. It asks
 * the tree's questions (the goal as buttons, the model as the published workloads, the GPU count
 * as a number), then the market, and answers as `python -m generator recommend --goal G --workload W --gpus N
 * --market M [--licensed]` does: the branch the answers lead to, with its reasons, and the
 * planner's answer at the reader's own point, computed here by costmodel.js `plan` (a port of the
 * Python planner that a parity test holds equal to it).
 *
 * The answers live in the page's address (?goal=…&workload=…&gpus=…&market=…&licensed=1), so an
 * answer can be shared; values the questionnaire cannot take are dropped.
 *
 * Progressive enhancement: the CSS shows the questionnaire (and hides the drawing) only at
 * widths up to 760 px and only once this script has marked it ready, so without JavaScript, or
 * if the tree does not load, the page keeps its drawing and its text sections; if the planner does
 * not load, an answer links to its branch's section, where the generator wrote the example's
 * answer.
 *
 * Spec text reaches the page only through textContent and attribute setters, never as markup.
 */
(function () {
  "use strict";

  // The script's own words, in the page's language (Material writes the theme's language, "zh" or
  // "en", into <html lang>); Chinese for any other. What the questionnaire shows from its data
  // file (questions, answers, titles, reasons, labels) is written in the page's language by the
  // generator: each edition has its own data/tree.json.
  var WORDS = {
    zh: {
      severity: { danger: "危险", warning: "警告", tip: "建议", info: "说明" },
      bottleneck: { memory: "显存", compute: "计算", intra_node: "机内互连", network: "节点间网络" },
      recompute: { none: "不重计算", selective: "选择性重计算", full: "完全重计算" },
      someLayers: function (n) { return "每块重计算 " + n + " 层"; },
      status: { "licence-required": "需要出口许可", barred: "买不到", "end-of-life": "已停售" },
      deadEnd: "这条路径没有下文；请返回上一步。",
      computing: "正在载入规划器……",
      plannerFailed: "规划器没能载入。这个分支的例子答案在下面的说明里：",
      plannerFailedLink: "查看这个分支",
      question: function (n) { return "第 " + n + " 问"; },
      questionMark: "？",
      workload: function (name, size) { return name + "（" + size + "）"; },
      gpuCount: "GPU 数量",
      next: "下一步",
      badCount: function (max) { return "GPU 数量应为 1 到 " + max + " 之间的整数"; },
      commonCounts: "常见的 GPU 数量",
      where: "在哪里采购？",
      licensedHint: "“获出口许可”把这个市场里需要逐案许可的部件也算进来。",
      back: "上一步",
      restart: "重新开始",
      noNetwork: "（单台，不需要节点间网络）",
      answer: "答案",
      point: function (model, gpus, market, goal) {
        return "模型：" + model + "；GPU：" + gpus + " 块；市场：" + market + "；目标：" + goal;
      },
      cannotPlan: function (problem) { return "无法规划：" + problem; },
      parallelism: "并行方式",
      list: "、",
      commWarning: function (share, line) { return "通信警告：按模型估算通信占一步的 " + share + "，超过警戒线 " + line + "%。"; },
      others: "其他 GPU 系列里最好的",
      other: function (name, step, slower) { return name + "：每步 " + step + " s，慢 " + slower + "%"; },
      nothingFits: function (gpus) { return "这个市场里能买到的配置，" + gpus + " 块 GPU 都放不下这个模型。"; },
      fewest: function (gpus, name) { return "至少要 " + gpus + " 块：" + name + "。"; },
      reasons: "这一分支的理由",
      pitfalls: "注意",
      severityTag: function (label) { return "[" + label + "] "; },
      about: function (name) { return "（与所选的 " + name + " 有关）"; },
      branchNotes: "这一分支的说明",
      inCalculator: "在计算器里细看",
      estimate: "按成本模型估算",
      memory: "每 GPU 显存",
      memoryValue: function (total, usable) { return total + " GB（可用 " + usable + " GB）"; },
      stepTime: "单步时间",
      throughput: "吞吐",
      tokensPerS: " token/s",
      commShare: "通信占比",
      allToAll: "其中专家全互联",
      acrossNodes: "（跨节点）",
      withinNode: "（节点内）",
      bottleneckLabel: "瓶颈",
      layoutLabel: "布局",
      layout: function (tp, pp, ep, etp, zero, recompute, batch, seq) {
        return "张量并行 " + tp + " × 流水线并行 " + pp + (ep > 1 ? " × 专家并行 " + ep : "") +
          (etp > 1 ? "（每个专家再切给 " + etp + " 块 GPU）" : "") + "，ZeRO-" + zero + "，" +
          recompute + "，全局批 " + batch + " 条 × " + seq + " token";
      },
      rule: function (status, title) { return status + "：" + title; },
      excluded: "这个市场没有计入的部件",
      excludedItem: function (rule, parts) { return rule + "（" + parts + "）"; }
    },
    en: {
      severity: { danger: "critical", warning: "warning", tip: "tip", info: "note" },
      bottleneck: { memory: "memory", compute: "compute", intra_node: "intra-node interconnect", network: "inter-node network" },
      recompute: { none: "no recomputation", selective: "selective recomputation", full: "full recomputation" },
      someLayers: function (n) { return n + " layers a chunk recomputed"; },
      status: { "licence-required": "needs an export licence", barred: "cannot be bought", "end-of-life": "no longer sold" },
      deadEnd: "This path leads nowhere; please go back a step.",
      computing: "Loading the planner…",
      plannerFailed: "The planner could not be loaded. The answer for this branch's example is in the notes below: ",
      plannerFailedLink: "see this branch",
      question: function (n) { return "Question " + n; },
      questionMark: "?",
      workload: function (name, size) { return name + " (" + size + ")"; },
      gpuCount: "Number of GPUs",
      next: "Next",
      badCount: function (max) { return "The number of GPUs must be a whole number from 1 to " + max; },
      commonCounts: "Common GPU counts",
      where: "Where will you buy?",
      licensedHint: "“Export licence granted” also counts the parts this market licenses case by case.",
      back: "Back",
      restart: "Start over",
      noNetwork: " (one server, no inter-node network needed)",
      answer: "Answer",
      point: function (model, gpus, market, goal) {
        return "Model: " + model + "; GPUs: " + gpus + "; market: " + market + "; goal: " + goal;
      },
      cannotPlan: function (problem) { return "Cannot plan: " + problem; },
      parallelism: "Parallelism",
      list: ", ",
      commWarning: function (share, line) {
        return "Communication warning: by the model's estimate, communication takes " + share + " of a step, above the " +
          "warning line of " + line + "%.";
      },
      others: "Best of the other GPU families",
      other: function (name, step, slower) { return name + ": " + step + " s per step, " + slower + "% slower"; },
      nothingFits: function (gpus) { return "Nothing this market can buy fits this model on " + gpus + " GPUs."; },
      fewest: function (gpus, name) { return " It takes at least " + gpus + ": " + name + "."; },
      reasons: "Why this branch",
      pitfalls: "Watch out",
      severityTag: function (label) { return "[" + label + "] "; },
      about: function (name) { return " (concerns the chosen " + name + ")"; },
      branchNotes: "Notes on this branch",
      inCalculator: "Look closer in the calculator",
      estimate: "Estimated by the cost model",
      memory: "Memory per GPU",
      memoryValue: function (total, usable) { return total + " GB (" + usable + " GB usable)"; },
      stepTime: "Step time",
      throughput: "Throughput",
      tokensPerS: " tokens/s",
      commShare: "Communication share",
      allToAll: "of which expert all-to-all",
      acrossNodes: " (across nodes)",
      withinNode: " (within a node)",
      bottleneckLabel: "Bottleneck",
      layoutLabel: "Layout",
      layout: function (tp, pp, ep, etp, zero, recompute, batch, seq) {
        return "tensor parallel " + tp + " × pipeline parallel " + pp + (ep > 1 ? " × expert parallel " + ep : "") +
          (etp > 1 ? " (each expert split over " + etp + " GPUs)" : "") +
          ", ZeRO-" + zero + ", " + recompute + ", global batch " + batch + " sequences × " + seq + " tokens";
      },
      rule: function (status, title) { return status + ": " + title; },
      excluded: "Parts this market leaves out",
      excludedItem: function (rule, parts) { return rule + " (" + parts + ")"; }
    }
  };

  function words() {
    var lang = (document.documentElement.lang || "").toLowerCase().split("-")[0];
    return WORDS[lang] || WORDS.zh;
  }

  var SEVERITY_ORDER = ["danger", "warning", "tip", "info"];
  var QUICK_GPUS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];
  var MAX_GPUS = 1000000;
  var MODEL = "model-size", GPUS = "gpus", GOAL = "goal";

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

  function byId(list, id) { return (list || []).filter(function (x) { return x.id === id; })[0]; }

  function fixed(value, digits) {
    return typeof value === "number" && isFinite(value) ? value.toFixed(digits) : "—";
  }

  function pct(value) { return fixed(typeof value === "number" ? value * 100 : null, 1) + "%"; }

  function billions(parameters) {
    var b = parameters / 1e9;
    return (b >= 10 ? b.toFixed(0) : b.toFixed(1)) + "B";
  }

  // A row of a two-column table: label and value, the value in a cell of its own.
  function row(tbody, label, value, key) {
    var tr = el("tr");
    if (key) tr.setAttribute("data-key", key);
    tr.appendChild(el("td", "", label));
    var td = el("td");
    if (value instanceof Node) { td.appendChild(value); } else { td.textContent = value; }
    tr.appendChild(td);
    tbody.appendChild(tr);
  }

  function matches(answer, value) {
    if (answer.value !== null && answer.value !== undefined) return answer.value === value;
    return typeof value === "number" && answer.min <= value && (answer.max === null || value < answer.max);
  }

  function Quiz(box, tree, data) {
    this.box = box;
    this.tree = tree;
    this.data = data;
    this.values = {}; // goal, workload, gpus, view (index into tree.markets)
    this.order = [];  // the keys of `values` in the order they were answered (for "back")
  }

  /** The tree's value of a variable from the reader's answers (model-size from the workload). */
  Quiz.prototype.value = function (variable) {
    if (variable === MODEL) {
      var w = byId(this.tree.workloads, this.values.workload);
      return w ? w.parameters / 1e9 : undefined;
    }
    return this.values[variable];
  };

  /** Where the answers stand: {steps, node (the leaf, or the question to ask), ask: the key to
   * ask next (a question id, "gpus" or "market") or null when everything is answered}. */
  Quiz.prototype.walk = function () {
    var tree = this.tree, id = tree.root, steps = [];
    for (var guard = 0; guard < 1000; guard++) {
      var node = tree.nodes[id];
      if (!node) return { steps: steps, node: null, ask: null };
      if (node.kind !== "question") break;
      var value = this.value(node.variable);
      if (value === undefined) return { steps: steps, node: node, ask: id };
      var chosen = null;
      for (var i = 0; i < node.answers.length; i++) {
        if (matches(node.answers[i], value)) { chosen = i; break; }
      }
      if (chosen === null) return { steps: steps, node: null, ask: null };
      steps.push({ question: id, answer: chosen });
      id = node.answers[chosen].next;
    }
    var leaf = tree.nodes[id];
    var ask = this.values.gpus === undefined ? GPUS : this.values.view === undefined ? "market" : null;
    return { steps: steps, node: leaf, leafId: id, ask: ask };
  };

  Quiz.prototype.set = function (key, value) {
    this.values[key] = value;
    this.order = this.order.filter(function (k) { return k !== key; });
    this.order.push(key);
    this.render(true);
  };

  Quiz.prototype.back = function () {
    var key = this.order.pop();
    if (key !== undefined) delete this.values[key];
    this.render(true);
  };

  Quiz.prototype.restart = function () {
    this.values = {};
    this.order = [];
    this.render(true);
  };

  /** The answers in the page's address (replaced, not pushed: the back button leaves the page). */
  Quiz.prototype.remember = function () {
    if (!window.history || !window.history.replaceState) return;
    var url = new URL(window.location.href), v = this.values, view = this.tree.markets[v.view];
    var params = { goal: v.goal, workload: v.workload, gpus: v.gpus, market: view ? view.market : undefined,
                   licensed: view && view.licensed ? "1" : undefined };
    Object.keys(params).forEach(function (name) {
      if (params[name] === undefined) { url.searchParams.delete(name); } else { url.searchParams.set(name, params[name]); }
    });
    url.searchParams.delete("answers");
    window.history.replaceState(window.history.state, "", url.href);
  };

  /** Replays the address's answers in the order the questionnaire asks them, as far as each is
   * a value it can take. */
  Quiz.prototype.restore = function () {
    var params = new URL(window.location.href).searchParams, tree = this.tree;
    var given = {
      goal: params.get("goal"), workload: params.get("workload"),
      gpus: /^\d{1,7}$/.test(params.get("gpus") || "") ? Number(params.get("gpus")) : null,
      view: null
    };
    tree.markets.forEach(function (m, i) {
      if (m.market === params.get("market") && m.licensed === (params.get("licensed") === "1")) given.view = i;
    });
    for (var guard = 0; guard < 10; guard++) {
      var at = this.walk(), key = null, ok = false;
      if (!at.ask) break;
      if (at.ask === "market") { key = "view"; ok = given.view !== null; }
      else if (at.ask === GPUS) { key = GPUS; ok = given.gpus >= 1 && given.gpus <= MAX_GPUS; }
      else {
        var variable = at.node.variable;
        if (variable === MODEL) { key = "workload"; ok = Boolean(byId(tree.workloads, given.workload)); }
        else if (variable === GPUS) { key = GPUS; ok = given.gpus >= 1 && given.gpus <= MAX_GPUS; }
        else if (variable === GOAL || tree.variables[variable].kind === "category") {
          key = variable;
          ok = at.node.answers.some(function (a) { return a.value === given[variable]; });
        }
      }
      if (!ok) break;
      this.values[key] = given[key];
      this.order.push(key);
    }
  };

  Quiz.prototype.render = function (moveFocus) {
    this.remember();
    var at = this.walk();
    var panel = el("div", "quiz-panel");
    if (!at.node) {
      panel.appendChild(el("p", "", words().deadEnd));
    } else if (at.ask === "market") {
      panel.appendChild(this.askMarket());
    } else if (at.ask === GPUS) {
      panel.appendChild(this.askGpus(at.node.kind === "question" ? at.node.ask : this.tree.variables[GPUS].name + words().questionMark));
    } else if (at.ask) {
      panel.appendChild(this.askQuestion(at.ask, at.node));
    } else if (!this.data) {
      // The planner (its script and data, most of this page's weight) is loaded when a first
      // answer needs it, not with the page (see `planner`).
      panel.setAttribute("data-node", at.leafId);
      panel.appendChild(this.waiting(at, moveFocus));
    } else {
      panel.setAttribute("data-node", at.leafId);
      panel.appendChild(this.result(at));
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

  /** A leaf's panel until the planner has loaded: the loading message, then the answer; if it
   * cannot load, a link to the branch's answer on the page (the generator wrote it there). */
  Quiz.prototype.waiting = function (at, moveFocus) {
    var self = this, w = words(), out = el("div", "quiz-waiting");
    out.appendChild(el("p", "quiz-progress", w.answer));
    out.appendChild(el("h3", "quiz-title", at.node.title));
    var status = el("p", "quiz-loading", w.computing);
    out.appendChild(status);
    planner(this.box).then(function (data) {
      self.data = data;
      if (self.walk().leafId === at.leafId) self.render(moveFocus);
    }).catch(function (error) {
      status.replaceChildren(w.plannerFailed);
      var link = el("a", "", w.plannerFailedLink);
      link.setAttribute("href", "#leaf-" + at.leafId);
      status.appendChild(link);
      if (window.console) console.warn("planner unavailable:", error);
    });
    return out;
  };

  Quiz.prototype.heading = function (text) {
    var wrap = el("div");
    wrap.appendChild(el("p", "quiz-progress", words().question(this.order.length + 1)));
    wrap.appendChild(el("h3", "quiz-question", text));
    return wrap;
  };

  Quiz.prototype.group = function (label) {
    var answers = el("div", "quiz-answers");
    answers.setAttribute("role", "group");
    answers.setAttribute("aria-label", label);
    return answers;
  };

  Quiz.prototype.askQuestion = function (id, node) {
    var self = this, out = this.heading(node.ask), answers = this.group(node.ask);
    if (node.variable === MODEL) {
      // The model is one of the published shapes, the planner's --workload.
      this.tree.workloads.forEach(function (w) {
        answers.appendChild(button(words().workload(w.name, billions(w.parameters)), function () { self.set("workload", w.id); },
                                   "quiz-answer quiz-workload"));
      });
    } else if (node.variable === GPUS) {
      return this.askGpus(node.ask);
    } else {
      node.answers.forEach(function (answer) {
        answers.appendChild(button(answer.label, function () { self.set(node.variable, answer.value); }, "quiz-answer"));
      });
    }
    out.appendChild(answers);
    return out;
  };

  Quiz.prototype.askGpus = function (ask) {
    var self = this, out = this.heading(ask);
    var form = el("form", "quiz-gpus");
    form.noValidate = true; // the script says what is wrong, in the page's words
    var input = el("input");
    input.type = "number"; input.min = "1"; input.max = String(MAX_GPUS); input.step = "1"; input.required = true;
    input.setAttribute("aria-label", words().gpuCount);
    input.setAttribute("inputmode", "numeric");
    var problem = el("p", "quiz-problem");
    form.appendChild(input);
    form.appendChild(button(words().next, function () { submit(); }, "quiz-next"));
    form.addEventListener("submit", function (event) { event.preventDefault(); submit(); });
    function submit() {
      var n = Number(input.value);
      if (!(n >= 1 && n <= MAX_GPUS && n % 1 === 0)) {
        problem.textContent = words().badCount(MAX_GPUS);
        return;
      }
      self.set(GPUS, n);
    }
    out.appendChild(form);
    out.appendChild(problem);
    var quick = this.group(words().commonCounts);
    QUICK_GPUS.forEach(function (n) {
      quick.appendChild(button(String(n), function () { self.set(GPUS, n); }, "quiz-answer quiz-count"));
    });
    out.appendChild(quick);
    return out;
  };

  Quiz.prototype.askMarket = function () {
    var self = this, out = this.heading(words().where), answers = this.group(words().where);
    this.tree.markets.forEach(function (m, i) {
      answers.appendChild(button(m.name, function () { self.set("view", i); }, "quiz-answer quiz-market"));
    });
    out.appendChild(answers);
    out.appendChild(el("p", "quiz-hint", words().licensedHint));
    return out;
  };

  Quiz.prototype.navigation = function () {
    var self = this;
    var nav = el("div", "quiz-nav");
    var back = button(words().back, function () { self.back(); }, "quiz-back");
    var restart = button(words().restart, function () { self.restart(); }, "quiz-restart");
    back.disabled = restart.disabled = this.order.length === 0;
    nav.appendChild(back);
    nav.appendChild(restart);
    return nav;
  };

  // ---- the answer: `recommend`'s object, computed here -------------------------------------------

  /** The request the planner gets: recommend's --workload, --gpus, --market, --goal, --licensed. */
  Quiz.prototype.request = function () {
    var view = this.tree.markets[this.values.view];
    return { workload: this.values.workload, gpus: this.values.gpus, market: view.market,
             goal: this.values.goal || "pretrain", licensed: view.licensed };
  };

  /** The answer's picks as `recommend` names them (planner/report.py `picks`). */
  Quiz.prototype.picks = function (option) {
    var data = this.data, out = {};
    var gpu = byId(data.gpus, option.gpu), node = option.node ? byId(data.nodes, option.node) : null;
    var net = option.network ? byId(data.networks, option.network) : null;
    var link = node ? node.scale_up : gpu && gpu.scale_up[String(option.gpus_per_node)];
    out.gpu = gpu ? { id: gpu.id, name: gpu.label, href: "../" + gpu.href } : null;
    out.node = node ? { id: node.id, name: node.label, href: "../" + node.href } : null;
    out.intra_node = link ? { id: link.id, name: link.label, href: "../" + link.href } : null;
    out.network = net ? { id: net.id, name: net.label, href: "../" + net.href } : null;
    var topology = this.tree.topology;
    out.topology = net && topology ? { id: topology.id, name: topology.name, href: topology.href } : null;
    return out;
  };

  /** The leaf's pitfalls, then those concerning a picked part (selection/advice.py `pitfalls_data`). */
  Quiz.prototype.pitfalls = function (leaf, picks) {
    var tree = this.tree, seen = {}, out = [];
    leaf.pitfalls.forEach(function (id) {
      var p = byId(tree.pitfalls, id);
      if (p && !seen[id]) { seen[id] = true; out.push({ pitfall: p, about: null }); }
    });
    if (!picks) return out;
    var chosen = [];
    ["gpu", "node", "intra_node", "network"].forEach(function (field) {
      var ref = picks[field];
      if (!ref) return;
      if (field !== "intra_node" || tree.pcie_links.indexOf(ref.id) >= 0) chosen.push(ref);
    });
    var concerning = [];
    tree.pitfalls.forEach(function (p) {
      var about = chosen.filter(function (ref) { return p.concerns.indexOf(ref.id) >= 0; })[0];
      if (about && !seen[p.id]) { seen[p.id] = true; concerning.push({ pitfall: p, about: about }); }
    });
    concerning.sort(function (a, b) {
      return SEVERITY_ORDER.indexOf(a.pitfall.severity) - SEVERITY_ORDER.indexOf(b.pitfall.severity) ||
        (a.pitfall.id < b.pitfall.id ? -1 : a.pitfall.id > b.pitfall.id ? 1 : 0);
    });
    return out.concat(concerning);
  };

  Quiz.prototype.optionName = function (option) {
    var node = option.node ? byId(this.data.nodes, option.node) : null;
    var gpu = byId(this.data.gpus, option.gpu), net = option.network ? byId(this.data.networks, option.network) : null;
    var where = node ? node.label : option.gpus + " × " + (gpu ? gpu.label : option.gpu);
    return where + (net ? " + " + net.label : words().noNetwork);
  };

  Quiz.prototype.result = function (at) {
    var tree = this.tree, data = this.data, self = this, leaf = at.node;
    var request = this.request();
    var answer = CostModel.plan(data, request);
    var out = el("div", "quiz-result");
    out.appendChild(el("p", "quiz-progress", words().answer));
    out.appendChild(el("h3", "quiz-title", leaf.title));

    var path = el("ol", "quiz-path");
    at.steps.forEach(function (step) {
      var question = tree.nodes[step.question];
      path.appendChild(el("li", "", question.ask + " → " + question.answers[step.answer].label));
    });
    out.appendChild(path);
    var workload = byId(tree.workloads, request.workload);
    var view = tree.markets[this.values.view];
    out.appendChild(el("p", "quiz-point", words().point(workload ? workload.name : request.workload, request.gpus, view.name,
                                                        tree.goal_labels[request.goal])));
    if (answer.problem) {
      out.appendChild(el("p", "quiz-none", words().cannotPlan(answer.problem)));
      return out;
    }
    var best = answer.options[0] || null;
    var picks = best ? this.picks(best) : null;
    if (best) {
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
      var lay = best.layout, parallel = [];
      if (best.gpus !== lay.tensor_parallel * lay.pipeline_parallel) parallel.push("data");
      if (lay.tensor_parallel > 1) parallel.push("tensor");
      if (lay.pipeline_parallel > 1) parallel.push("pipeline");
      if (parallel.length) {
        row(tbody, words().parallelism, parallel.map(function (p) { return tree.parallelism_labels[p]; }).join(words().list),
            "parallelism");
      }
      table.appendChild(tbody);
      out.appendChild(table);
      out.appendChild(this.estimateBlock(best));
      var threshold = tree.comm_share_threshold;
      if (typeof threshold === "number" && best.estimate.comm_share > threshold) {
        out.appendChild(el("p", "quiz-warning", words().commWarning(pct(best.estimate.comm_share), (threshold * 100).toFixed(0))));
      }
      if (answer.options.length > 1) {
        out.appendChild(el("h4", "", words().others));
        var others = el("ol", "quiz-options");
        answer.options.slice(1).forEach(function (o) {
          var li = el("li", "", words().other(self.optionName(o), fixed(o.estimate.step_time_s, 2),
                                              ((o.estimate.step_time_s / best.estimate.step_time_s - 1) * 100).toFixed(0)));
          li.setAttribute("data-id", o.id);
          others.appendChild(li);
        });
        out.appendChild(others);
      }
    } else {
      var none = words().nothingFits(request.gpus);
      if (answer.fewest) none += words().fewest(answer.fewest.gpus, this.optionName(answer.fewest.option));
      var p = el("p", "quiz-none", none);
      p.setAttribute("data-fewest", answer.fewest ? String(answer.fewest.gpus) : "");
      out.appendChild(p);
    }
    this.excluded(out, answer);

    if (leaf.reasons.length) {
      out.appendChild(el("h4", "", words().reasons));
      var reasons = el("ul", "quiz-reasons");
      leaf.reasons.forEach(function (reason) { reasons.appendChild(el("li", "", reason)); });
      out.appendChild(reasons);
    }
    var pitfalls = this.pitfalls(leaf, picks);
    if (pitfalls.length) {
      out.appendChild(el("h4", "", words().pitfalls));
      var list = el("ul", "quiz-pitfalls");
      pitfalls.forEach(function (item) {
        var li = el("li");
        li.setAttribute("data-id", item.pitfall.id);
        li.appendChild(el("span", "quiz-severity", words().severityTag(words().severity[item.pitfall.severity] ||
                                                                        item.pitfall.severity)));
        li.appendChild(link(item.pitfall.title, item.pitfall.href));
        if (item.about) li.appendChild(el("span", "quiz-about", words().about(item.about.name)));
        list.appendChild(li);
      });
      out.appendChild(list);
    }
    var more = el("p", "quiz-more");
    more.appendChild(link(words().branchNotes, leaf.href));
    var calculator = this.box.getAttribute("data-calculator");
    if (calculator) {
      more.appendChild(document.createTextNode(" · "));
      var url = calculator + "?workload=" + encodeURIComponent(request.workload) + "&gpus=" + request.gpus;
      more.appendChild(link(words().inCalculator, url));
    }
    out.appendChild(more);
    return out;
  };

  Quiz.prototype.estimateBlock = function (option) {
    var e = option.estimate, lay = option.layout;
    var block = el("div", "quiz-estimate");
    var w = words();
    block.appendChild(el("h4", "", w.estimate));
    var table = el("table");
    var tbody = el("tbody");
    var memory = e.memory_per_gpu_gb || {};
    row(tbody, w.memory, w.memoryValue(fixed(memory.total_gb, 1), fixed(memory.usable_gb, 1)), "memory");
    row(tbody, w.stepTime, fixed(e.step_time_s, 2) + " s", "step_time_s");
    row(tbody, w.throughput, fixed(e.tokens_per_s, 0) + w.tokensPerS, "tokens_per_s");
    row(tbody, w.commShare, pct(e.comm_share), "comm_share");
    if (e.all_to_all) {  // a mixture-of-experts model with its experts spread over GPUs
      row(tbody, w.allToAll, pct(e.all_to_all.share) + (e.all_to_all.on_network ? w.acrossNodes : w.withinNode),
          "all_to_all_share");
    }
    row(tbody, w.bottleneckLabel, w.bottleneck[e.bottleneck] || e.bottleneck, "bottleneck");
    row(tbody, w.layoutLabel, w.layout(lay.tensor_parallel, lay.pipeline_parallel, lay.expert_parallel,
                                       lay.expert_tensor_parallel || 1, lay.zero_stage,
                                       lay.recompute_layers > 0 ? w.someLayers(lay.recompute_layers)
                                         : w.recompute[lay.recompute] || lay.recompute, lay.global_batch_size,
                                       lay.sequence_length), "layout");
    table.appendChild(tbody);
    block.appendChild(table);
    return block;
  };

  /** The parts the market leaves out, grouped by the ruling that does it. */
  Quiz.prototype.excluded = function (out, answer) {
    var data = this.data, byRule = {}, keys = [], w = words();
    answer.excluded.forEach(function (e) {
      if (e.kind !== "market" || !e.status) return;
      var key = w.rule(w.status[e.status], e.title);
      if (!byRule[key]) { byRule[key] = []; keys.push(key); }
      var part = byId(data.nodes, e.id) || byId(data.gpus, e.id);
      byRule[key].push(part ? part.label : e.id);
    });
    if (!keys.length) return;
    out.appendChild(el("h4", "", w.excluded));
    var list = el("ul", "quiz-excluded");
    keys.forEach(function (k) { list.appendChild(el("li", "", w.excludedItem(k, byRule[k].join(w.list)))); });
    out.appendChild(list);
  };

  function load(url) {
    return fetch(url).then(function (response) {
      if (!response.ok) throw new Error(response.status + " " + response.url);
      return response.json();
    });
  }

  /** A script, added to the page once (a promise of its load). */
  function script(url) {
    return new Promise(function (resolve, reject) {
      var tag = document.createElement("script");
      tag.src = url;
      tag.onload = resolve;
      tag.onerror = function () { reject(new Error("cannot load " + url)); };
      document.head.appendChild(tag);
    });
  }

  /** The planner's data (data-costmodel), with its script (data-planner) run: loaded once per
   * questionnaire, when the reader first answers, or when an answer is asked for at once (a
   * shared address). Most of the page's weight, so not with the page. */
  function planner(box) {
    if (!box.plannerLoaded) {
      var code = typeof CostModel !== "undefined" ? Promise.resolve() : script(box.getAttribute("data-planner"));
      box.plannerLoaded = Promise.all([code, load(box.getAttribute("data-costmodel"))]).then(function (files) {
        if (typeof CostModel === "undefined") throw new Error("the planner's script defines no CostModel");
        return files[1];
      });
      box.plannerLoaded.catch(function () {}); // reported where an answer waits for it
    }
    return box.plannerLoaded;
  }

  function start(box) {
    if (box.getAttribute("data-quiz-state")) return;
    box.setAttribute("data-quiz-state", "loading");
    load(box.getAttribute("data-tree"))
      .then(function (tree) {
        if (!tree.nodes || !tree.nodes[tree.root] || !tree.markets || !tree.markets.length) {
          throw new Error("tree.json has no root or no market");
        }
        var quiz = new Quiz(box, tree, null);
        quiz.restore();
        quiz.render(false);
        box.setAttribute("data-quiz-state", "ready");
        box.classList.add("quiz-ready"); // from here on, narrow screens show this instead of the drawing
        // The reader has begun: fetch the planner while they answer.
        box.addEventListener("click", function () { planner(box); }, { once: true });
      })
      .catch(function (error) {
        box.setAttribute("data-quiz-state", "failed");
        document.documentElement.classList.add("quiz-failed"); // "how to read" explains the drawing again
        if (window.console) console.warn("questionnaire unavailable, the drawing stays:", error);
      });
  }

  function startAll() {
    document.querySelectorAll(".quiz[data-tree]").forEach(start);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", startAll);
  } else {
    startAll();
  }
})();

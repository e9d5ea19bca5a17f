/*
 * The calculator page (calculator.md): reads the site's data/costmodel.json (the cost model's
 * inputs, resolved by the generator from the knowledge base), builds the model's records from
 * the reader's choices exactly as generator/estimates/choice.py `resolve` does for the CLI, and
 * shows what costmodel.js (the port of the Python model) computes.
 *
 * Progressive enhancement: the page ships a notice saying the calculator needs JavaScript and a
 * hidden form; this script hides the notice and shows the form only once the data has loaded.
 * Its words come from a table per language, chosen by the page's <html lang>; the data file is in
 * the page's language (the English site has its own). All text from the data is set with
 * textContent (never as HTML). Every shown number carries its
 * unrounded value in data-value, so a test can compare it with `estimate --format json`.
 */
(function () {
  "use strict";

  var form = document.getElementById("calc");
  var dataLink = document.getElementById("calc-data");
  if (!form || !dataLink || typeof CostModel === "undefined") {
    return;
  }
  var notice = document.getElementById("calc-nojs");
  var result = document.getElementById("calc-result");
  var siteRoot = new URL("../", dataLink.href);
  var data = null;

  // ---- the words: one table per language, chosen by the page's <html lang> ("zh" or "en", which
  // Material sets from the theme's language); the data file is in the page's language already.
  var TEXT = {
    zh: {
      locale: "zh-CN",
      bottleneck: {memory: "显存", compute: "计算", intra_node: "机内互连", network: "节点间网络"},
      counts: {pp: "流水线并行", micro_batch: "微批大小", seq: "序列长度", global_batch: "全局批大小",
               virtual_pipeline: "虚拟流水线", cp: "上下文并行"},
      "at-least-one": function (what) { return what + "应为不小于 1 的整数"; },
      "shard-group": "分片组应为不小于 0 的整数",
      "expert-parallel": "专家并行应为不小于 1 的整数",
      "expert-tensor-parallel": "专家张量并行应为不小于 1 的整数",
      "recompute-layers": "每块重计算的层数应为不小于 0 的整数",
      "adapter-rank": "LoRA 适配器的秩应为不小于 0 的整数",
      entry: function (label) { return label + " 的条目"; },
      "cannot-estimate": function (problem) { return "无法估算：" + problem; },
      "config-cannot-estimate": "这个配置无法估算：",
      verdict: function (fits, total, usable, bottleneck) {
        return (fits ? "放得下" : "放不下") + "：每块 GPU 需要 " + total + " GB，可用 " + usable + " GB；瓶颈是" + bottleneck + "。";
      },
      "memory-caption": "每块 GPU 的显存（GB = 10⁹ 字节）",
      memory: {weights: "权重", gradients: "梯度", optimizer: "优化器状态", model_states: "模型状态合计", activations: "激活",
               total: "合计", usable: "扣除预留后可用", headroom: "余量（负数为不足）"},
      "no-step": function (hint) { return "放不下的配置不给单步时间和吞吐。" + hint; },
      "tokens-caption": function (tokens) { return "训练 " + tokens + " B token"; },
      days: "训练时间（天）",
      "gpu-hours": "GPU 小时",
      "step-caption": "单步时间与通信",
      step: {step_time: "单步时间（秒）", tokens: "吞吐（token/秒）", comm: "通信占比", bottleneck: "瓶颈",
             scaling: "相对单节点的扩展效率", mfu: "实际 MFU", microbatches: "每步微批数", compute: "计算（含气泡，秒）",
             bubble: "其中流水线气泡（秒）", bubble_share: "流水线气泡占每步", intra: "机内互连（秒）",
             network: "节点间网络（秒）", exposed: "未被掩盖的通信（秒）", tp: "其中张量并行（秒）",
             tp_share: "张量并行占每步", dp: "其中数据并行，未被计算掩盖（秒）", dp_share: "数据并行占每步"},
      "all-to-all": function (onNetwork) { return "其中专家全互联（" + (onNetwork ? "跨节点" : "节点内") + "）"; },
      "scaling-note": function (note) { return "扩展效率：" + note + "。"; },
      "short-by": function (gb) { return "每块 GPU 还差 " + gb + " GB。"; },
      "try-zero-3": "可以把 ZeRO 提到 3，把模型状态分到数据并行的各块 GPU 上。",
      "try-full-recompute": "可以改用完全重计算，只存每层的输入。",
      "try-more-layers": "可以让每块重计算更多层（0 为每层都重计算）。",
      "try-pipeline": function (layers, pps) { return "能同时整除层数（" + layers + "）和 GPU 数的流水线并行度还有：" + pps.join("、") + "。"; },
      "cannot-search": function (problem) { return "无法搜索：" + problem; },
      "no-layout": function (why) { return "没有布局能放到这些 GPU 上：" + why; },
      "least-memory": "没有布局放得下；这是最省显存的一种。",
      "layout-chosen": "已选出放得下且最快的布局。",
      status: {"licence-required": "需要出口许可", barred: "买不到", "end-of-life": "已停售"},
      "gpus-not-whole": "GPU 总数应为不小于 1 的整数",
      "cannot-plan": function (problem) { return "无法规划：" + problem; },
      "nothing-fits": function (gpus) { return "在这个市场里能买到的配置，" + gpus + " 块 GPU 都放不下这个负载。"; },
      "at-least": function (gpus, option) { return "至少要 " + gpus + " 块：" + option + "。"; },
      "plan-caption": "每个 GPU 系列里最好的一种，按每步时间排序",
      "plan-heads": ["配置", "每步（秒）", "token/秒", "通信占比", "布局"],
      recommended: "推荐：",
      recompute: {none: "不重计算", full: "完全重计算", selective: "选择性重计算"},
      "some-layers": function (n) { return "每块重计算 " + n + " 层"; },
      ruled: function (status, title) { return status + "：" + title; },
      parts: function (rule, parts) { return rule + "（" + parts.join("、") + "）"; },
      "excluded-intro": "这个市场里没有计入的部件（依据见“各市场能买到什么”页）：",
      "single-node": "（单台）",
      "assumption-value": function (value) { return "：" + value; },
      "no-inputs": "知识库里缺少负载、GPU 或网络，计算器没有可选的输入。",
      "fetch-failed": function (message) { return "读取 costmodel.json 失败：" + message; }
    },
    en: {
      locale: "en-US",
      bottleneck: {memory: "memory", compute: "compute", intra_node: "the intra-node interconnect",
                   network: "the inter-node network"},
      counts: {pp: "Pipeline parallel", micro_batch: "Micro-batch size", seq: "Sequence length",
               global_batch: "Global batch size", virtual_pipeline: "Virtual pipeline", cp: "Context parallel"},
      "at-least-one": function (what) { return what + " must be a whole number of at least 1"; },
      "shard-group": "Shard group must be a whole number of at least 0",
      "expert-parallel": "Expert parallel must be a whole number of at least 1",
      "expert-tensor-parallel": "Expert tensor parallel must be a whole number of at least 1",
      "recompute-layers": "Layers recomputed per chunk must be a whole number of at least 0",
      "adapter-rank": "LoRA adapter rank must be a whole number of at least 0",
      entry: function (label) { return "entry for " + label; },
      "cannot-estimate": function (problem) { return "Cannot estimate: " + problem; },
      "config-cannot-estimate": "This configuration cannot be estimated:",
      verdict: function (fits, total, usable, bottleneck) {
        return (fits ? "Fits" : "Does not fit") + ": each GPU needs " + total + " GB, " + usable +
               " GB usable; the bottleneck is " + bottleneck + ".";
      },
      "memory-caption": "Memory per GPU (GB = 10⁹ bytes)",
      memory: {weights: "Weights", gradients: "Gradients", optimizer: "Optimizer states", model_states: "Model states in all",
               activations: "Activations", total: "Total", usable: "Usable after the reserve",
               headroom: "Headroom (negative: short)"},
      "no-step": function (hint) { return "A configuration that does not fit gets no step time or throughput. " + hint; },
      "tokens-caption": function (tokens) { return "Training on " + tokens + " B tokens"; },
      days: "Training time (days)",
      "gpu-hours": "GPU hours",
      "step-caption": "Step time and communication",
      step: {step_time: "Step time (s)", tokens: "Throughput (token/s)", comm: "Communication share", bottleneck: "Bottleneck",
             scaling: "Scaling efficiency against one node", mfu: "Achieved MFU", microbatches: "Micro-batches per step",
             compute: "Compute, bubble included (s)", bubble: "of which pipeline bubble (s)",
             bubble_share: "Pipeline bubble share of the step", intra: "Intra-node interconnect (s)",
             network: "Inter-node network (s)", exposed: "Communication not hidden (s)", tp: "of which tensor parallel (s)",
             tp_share: "Tensor parallel share of the step", dp: "of which data parallel, not hidden by compute (s)",
             dp_share: "Data parallel share of the step"},
      "all-to-all": function (onNetwork) {
        return "of which expert all-to-all (" + (onNetwork ? "across nodes" : "within a node") + ")";
      },
      "scaling-note": function (note) { return "Scaling efficiency: " + note + "."; },
      "short-by": function (gb) { return "Each GPU is " + gb + " GB short. "; },
      "try-zero-3": "You could raise ZeRO to 3, spreading the model states over the data-parallel GPUs. ",
      "try-full-recompute": "You could switch to full recomputation, which stores only each layer's input. ",
      "try-more-layers": "You could recompute more layers of each chunk (0: every layer). ",
      "try-pipeline": function (layers, pps) {
        return "Other pipeline parallel degrees that divide both the layers (" + layers + ") and the GPU count: " +
               pps.join(", ") + ".";
      },
      "cannot-search": function (problem) { return "Cannot search: " + problem; },
      "no-layout": function (why) { return "No layout can be placed on these GPUs: " + why; },
      "least-memory": "No layout fits; this is the one that needs the least memory.",
      "layout-chosen": "Chose the fastest layout that fits.",
      status: {"licence-required": "needs an export licence", barred: "cannot be bought", "end-of-life": "end of life"},
      "gpus-not-whole": "GPUs in total must be a whole number of at least 1",
      "cannot-plan": function (problem) { return "Cannot plan: " + problem; },
      "nothing-fits": function (gpus) { return "None of the configurations on sale in this market fits this workload on " + gpus + " GPUs. "; },
      "at-least": function (gpus, option) { return "It needs at least " + gpus + ": " + option + "."; },
      "plan-caption": "The best of each GPU family, by step time",
      "plan-heads": ["Configuration", "Step (s)", "token/s", "Communication share", "Layout"],
      recommended: "Recommended: ",
      recompute: {none: "no recomputation", full: "full recomputation", selective: "selective recomputation"},
      "some-layers": function (n) { return n + " layers a chunk recomputed"; },
      ruled: function (status, title) { return status + ": " + title; },
      parts: function (rule, parts) { return rule + " (" + parts.join(", ") + ")"; },
      "excluded-intro": "Parts not counted in this market (see the markets and availability page for why):",
      "single-node": " (single node)",
      "assumption-value": function (value) { return ": " + value; },
      "no-inputs": "The knowledge base lacks workloads, GPUs or networks: the calculator has no inputs to offer.",
      "fetch-failed": function (message) { return "Could not read costmodel.json: " + message; }
    }
  };
  var LANG = (document.documentElement.lang || "").slice(0, 2) === "en" ? "en" : "zh";
  /** What the page says under `key`: the entry, or the entry applied to the figures after the key. */
  function say(key) {
    var entry = TEXT[LANG][key];
    return typeof entry === "function" ? entry.apply(null, Array.prototype.slice.call(arguments, 1)) : entry;
  }
  var BOTTLENECK = say("bottleneck");

  function el(tag, text, cls) {
    var node = document.createElement(tag);
    if (text != null) { node.textContent = text; }
    if (cls) { node.className = cls; }
    return node;
  }
  function href(path) { return path ? new URL(path, siteRoot).href : "#"; }
  function byId(list, id) { return list.filter(function (x) { return x.id === id; })[0]; }
  function field(name) { return form.elements.namedItem(name); }
  function whole(name) {
    var text = field(name).value.trim();
    return /^\d+$/.test(text) ? Number(text) : NaN;
  }

  /** A number as the page shows it: 4 significant digits, grouped thousands. */
  function fmt(x) {
    if (x == null || !isFinite(x)) { return "—"; }
    var rounded = Number(x.toPrecision(4));
    return Math.abs(rounded) >= 1000 ? Math.round(rounded).toLocaleString(say("locale")) : String(rounded);
  }
  // the model refuses an estimate that is not finite; a share that is not finite is still never "NaN%"
  function pct(x) { return x == null || !isFinite(x) ? "—" : (x * 100).toFixed(1) + "%"; }

  function fill(select, items, label) {
    items.forEach(function (item) {
      var option = el("option", label(item));
      option.value = item.id;
      select.appendChild(option);
    });
  }

  /** The reader's choice; counts that are not whole numbers are NaN (fromChoice rejects them). */
  function choice() {
    var names = say("counts");
    for (var key in names) {
      if (!(whole(key) >= 1)) { return {problem: say("at-least-one", names[key])}; }
    }
    if (!(whole("shard_group") >= 0)) { return {problem: say("shard-group")}; }
    if (!(whole("ep") >= 1)) { return {problem: say("expert-parallel")}; }
    if (!(whole("etp") >= 1)) { return {problem: say("expert-tensor-parallel")}; }
    if (!(whole("recompute_layers") >= 0)) { return {problem: say("recompute-layers")}; }
    if (!(whole("adapter_rank") >= 0)) { return {problem: say("adapter-rank")}; }
    return {workload: field("workload").value, node: field("node").value, gpu: field("gpu").value,
            network: field("network").value,
            gpus: whole("gpus"), gpus_per_node: Number(field("gpus_per_node").value),
            nics_per_node: whole("nics_per_node"), tp: Number(field("tp").value), pp: whole("pp"),
            zero: Number(field("zero").value), micro_batch: whole("micro_batch"), seq: whole("seq"),
            global_batch: whole("global_batch"), recompute: field("recompute").value,
            recompute_layers: whole("recompute_layers"),
            sequence_parallel: field("sequence_parallel").checked,
            flash_attention: field("flash_attention").checked, virtual_pipeline: whole("virtual_pipeline"),
            fp32_gradients: field("fp32_gradients").checked, tp_overlap: Number(field("tp_overlap").value),
            cp: whole("cp"), shard_group: whole("shard_group"), attention_kernel: field("attention_kernel").value,
            adapter_rank: whole("adapter_rank"), base_bits: Number(field("base_bits").value),
            ep: whole("ep"), etp: whole("etp"), ep_overlap: Number(field("ep_overlap").value)};
  }

  function resolve() {
    var chosen = choice();
    return chosen.problem ? chosen : CostModel.fromChoice(data, chosen);
  }

  function setRef(name, record) {
    var a = form.querySelector('a.calc-ref[data-ref="' + name + '"]');
    if (name === "node") {
      // No node chosen: no link (an empty anchor would point nowhere).
      a.hidden = !record;
      if (record) { a.href = href(record.href); } else { a.removeAttribute("href"); }
      a.setAttribute("aria-label", say("entry", record ? record.label : ""));
      return;
    }
    a.href = href(record && record.href);
    if (name === "scale_up") { a.textContent = record && record.label ? record.label : "—"; }
    else { a.setAttribute("aria-label", say("entry", record ? record.label : "")); }
  }

  function row(tbody, label, key, value, shown) {
    var tr = el("tr");
    tr.appendChild(el("th", label));
    var td = el("td", shown, "num");
    // a share of the step that the page computes from two outputs (the primer shows the same):
    // data-share, not data-key, which names an output of `estimate --format json`
    if (key.indexOf("share.") === 0) { td.setAttribute("data-share", key.slice(6)); }
    else { td.setAttribute("data-key", key); }
    if (typeof value === "number") { td.setAttribute("data-value", String(value)); }
    else if (value != null) { td.setAttribute("data-value", String(value)); }
    tr.appendChild(td);
    tbody.appendChild(tr);
  }

  function table(caption, rows) {
    var t = el("table", null, "calc-table");
    t.appendChild(el("caption", caption));
    var tbody = el("tbody");
    rows.forEach(function (r) { row(tbody, r[0], r[1], r[2], r[3]); });
    t.appendChild(tbody);
    var wrap = el("div", null, "calc-box");
    wrap.appendChild(t);
    return wrap;
  }

  // ---- the inputs in the page's address, so that an answer can be shared ----------------------
  var FIELDS = ["workload", "node", "gpu", "gpus", "gpus_per_node", "network", "nics_per_node", "tp", "pp", "zero",
                "micro_batch", "seq", "global_batch", "recompute", "recompute_layers", "sequence_parallel", "flash_attention",
                "attention_kernel", "virtual_pipeline", "cp", "shard_group", "tp_overlap", "fp32_gradients", "ep", "etp", "ep_overlap",
                "adapter_rank", "base_bits", "tokens_b"];

  /** Every input into the query string (`?workload=…&gpus=64…`), replacing the entry. */
  function remember() {
    if (!window.history || !window.history.replaceState) { return; }
    var url = new URL(window.location.href);
    FIELDS.forEach(function (name) {
      var f = field(name);
      url.searchParams.set(name, f.type === "checkbox" ? (f.checked ? "1" : "0") : f.value);
    });
    window.history.replaceState(window.history.state, "", url.href);
  }

  /** The inputs the address names, each only if the form can take it (an option the select has,
   * a number for a number field); the node first, since it sets and locks the GPU fields. */
  function restore() {
    var params = new URL(window.location.href).searchParams;
    if (params.has("node") && byId(data.nodes || [], params.get("node"))) {
      field("node").value = params.get("node");
      applyNode();
    }
    FIELDS.forEach(function (name) {
      var f = field(name), value = params.get(name);
      if (value === null || name === "node" || f.disabled) { return; }
      if (f.type === "checkbox") { f.checked = value === "1"; return; }
      if (f.tagName === "SELECT") {
        if (Array.prototype.some.call(f.options, function (o) { return o.value === value; })) { f.value = value; }
        return;
      }
      if (value === "" || isFinite(Number(value))) { f.value = value; }
    });
    // An address with a total but no GPUs per node gets the size that total implies, as typing it would.
    if (params.has("gpus_per_node")) { perNodeChosen = true; } else { followTotal(); }
  }

  function render() {
    remember();
    var chosen = resolve();
    setRef("workload", chosen.workload || byId(data.workloads, field("workload").value));
    setRef("gpu", chosen.gpu || byId(data.gpus, field("gpu").value));
    setRef("network", chosen.network || byId(data.networks, field("network").value));
    setRef("node", chosen.node || byId(data.nodes || [], field("node").value));
    setRef("scale_up", chosen.link);
    result.textContent = "";
    result.hidden = false;
    if (chosen.problem) {
      result.appendChild(el("p", say("cannot-estimate", chosen.problem), "calc-problem"));
      return;
    }
    var out = CostModel.estimate.apply(null, chosen.inputs);
    if (out.problems) {
      var list = el("ul", null, "calc-problems");
      out.problems.forEach(function (p) {
        var item = el("li", p.message, "calc-problem");
        item.setAttribute("data-code", p.code);
        list.appendChild(item);
      });
      result.appendChild(el("p", say("config-cannot-estimate")));
      result.appendChild(list);
      return;
    }
    var m = out.memory_per_gpu_gb, t = out.time_s;
    var head = el("p", null, "calc-verdict " + (out.fits ? "calc-fits" : "calc-nofit"));
    head.setAttribute("data-key", "fits");
    head.setAttribute("data-value", String(out.fits));
    head.textContent = say("verdict", out.fits, fmt(m.total_gb), fmt(m.usable_gb), BOTTLENECK[out.bottleneck]);
    result.appendChild(head);
    var M = say("memory");
    result.appendChild(table(say("memory-caption"), [
      [M.weights, "memory_per_gpu_gb.weights_gb", m.weights_gb, fmt(m.weights_gb)],
      [M.gradients, "memory_per_gpu_gb.gradients_gb", m.gradients_gb, fmt(m.gradients_gb)],
      [M.optimizer, "memory_per_gpu_gb.optimizer_gb", m.optimizer_gb, fmt(m.optimizer_gb)],
      [M.model_states, "memory_per_gpu_gb.model_states_gb", m.model_states_gb, fmt(m.model_states_gb)],
      [M.activations, "memory_per_gpu_gb.activations_gb", m.activations_gb, fmt(m.activations_gb)],
      [M.total, "memory_per_gpu_gb.total_gb", m.total_gb, fmt(m.total_gb)],
      [M.usable, "memory_per_gpu_gb.usable_gb", m.usable_gb, fmt(m.usable_gb)],
      [M.headroom, "memory_per_gpu_gb.headroom_gb", m.headroom_gb, fmt(m.headroom_gb)]]));
    if (!out.fits) {
      // A configuration that does not fit has no step to time: say what would fit instead.
      result.appendChild(el("p", say("no-step", fitHint(chosen, m)), "calc-note calc-hint"));
      return;
    }
    var tokens = Number(field("tokens_b").value) * 1e9;
    if (tokens > 0) {
      var seconds = tokens / out.tokens_per_s, gpuHours = whole("gpus") * seconds / 3600;
      result.appendChild(table(say("tokens-caption", fmt(tokens / 1e9)), [
        [say("days"), "train_days", seconds / 86400, fmt(seconds / 86400)],
        [say("gpu-hours"), "gpu_hours", gpuHours, fmt(gpuHours)]]));
    }
    var S = say("step");
    result.appendChild(table(say("step-caption"), [
      [S.step_time, "step_time_s", out.step_time_s, fmt(out.step_time_s)],
      [S.tokens, "tokens_per_s", out.tokens_per_s, fmt(out.tokens_per_s)],
      [S.comm, "comm_share", out.comm_share, pct(out.comm_share)]].concat(out.all_to_all ? [
      [say("all-to-all", out.all_to_all.on_network), "all_to_all.share",
       out.all_to_all.share, pct(out.all_to_all.share)]] : []).concat([
      [S.bottleneck, "bottleneck", out.bottleneck, BOTTLENECK[out.bottleneck]],
      [S.scaling, "scaling_efficiency", out.scaling_efficiency, pct(out.scaling_efficiency)],
      [S.mfu, "achieved_mfu", out.achieved_mfu, pct(out.achieved_mfu)],
      [S.microbatches, "microbatches", out.microbatches, fmt(out.microbatches)],
      [S.compute, "time_s.compute", t.compute, fmt(t.compute)],
      [S.bubble, "time_s.bubble", t.bubble, fmt(t.bubble)],
      [S.bubble_share, "share.bubble", t.bubble / out.step_time_s, pct(t.bubble / out.step_time_s)],
      [S.intra, "time_s.intra_node", t.intra_node, fmt(t.intra_node)],
      [S.network, "time_s.network", t.network, fmt(t.network)],
      [S.exposed, "time_s.exposed_comm", t.exposed_comm, fmt(t.exposed_comm)],
      [S.tp, "time_s.tensor_parallel", t.tensor_parallel, fmt(t.tensor_parallel)],
      [S.tp_share, "share.tensor_parallel", t.tensor_parallel / out.step_time_s,
       pct(t.tensor_parallel / out.step_time_s)],
      [S.dp, "time_s.dp_exposed", t.dp_exposed, fmt(t.dp_exposed)],
      [S.dp_share, "share.dp_exposed", t.dp_exposed / out.step_time_s, pct(t.dp_exposed / out.step_time_s)]])));
    result.appendChild(el("p", say("scaling-note", out.scaling_note), "calc-note"));
    var kind = accuracyOf(chosen.inputs[0], chosen.inputs[2]);
    if (kind) {
      var line = el("p", kind.statement, "calc-note calc-accuracy-kind");
      line.setAttribute("data-key", "accuracy.kind.mean_abs_error");
      line.setAttribute("data-value", String(kind.mean_abs_error));
      result.appendChild(line);
    }
    var on = accuracyOn(chosen.gpu);
    if (on) {
      var onLine = el("p", on.statement, "calc-note calc-accuracy-architecture");
      onLine.setAttribute("data-key", "accuracy.architecture.bias");
      onLine.setAttribute("data-value", String(on.bias));
      result.appendChild(onLine);
    }
  }

  /** The model's error on the published runs on the chosen GPU's architecture, as
   * calibration.py `for_kind` picks it (every architecture is listed, with runs 0 and its own
   * sentence where none was measured); null when the data has none. */
  function accuracyOn(gpu) {
    var listed = data.accuracy && data.accuracy.architectures;
    if (!listed || !gpu) { return null; }
    for (var i = 0; i < listed.length; i++) {
      if (listed[i].architecture === gpu.architecture) { return listed[i]; }
    }
    return null;
  }

  /** The model's error on the published runs of the answer's kind (its block, precision and what it
   * trains), as generator/estimates/calibration.py `for_kind` picks it (the data lists every kind,
   * with runs 0 and its own sentence where none was measured); null when the data has no accuracy. */
  function accuracyOf(workload, layout) {
    var kinds = data.accuracy && data.accuracy.kinds;
    if (!kinds) { return null; }
    var block = workload.moe != null ? "moe" : "dense", training = layout.adapter_rank > 0 ? "lora" : "full";
    for (var i = 0; i < kinds.length; i++) {
      if (kinds[i].block === block && kinds[i].precision === layout.precision && kinds[i].training === training) {
        return kinds[i];
      }
    }
    return null;
  }

  /** What would fit: the pipeline degrees that divide both the layers and the GPUs, and how far
   * ZeRO or recomputation could go, in one sentence. */
  function fitHint(chosen, m) {
    var layers = chosen.workload.spec.layers, gpus = whole("gpus"), t = Number(field("tp").value);
    var pps = [];
    for (var p = 1; p <= layers; p++) {
      if (layers % p === 0 && gpus % (t * p) === 0 && p !== whole("pp")) { pps.push(p); }
    }
    var parts = [say("short-by", fmt(-m.headroom_gb))];
    if (Number(field("zero").value) < 3) { parts.push(say("try-zero-3")); }
    if (field("recompute").value !== "full") { parts.push(say("try-full-recompute")); }
    else if (whole("recompute_layers") > 0) { parts.push(say("try-more-layers")); }
    if (pps.length) { parts.push(say("try-pipeline", layers, pps)); }
    return parts.join("").trim();
  }

  /** Without a node, GPUs per node follows the total (the CLI's default, min(8, total)) until the
   * reader picks a size: the largest offered size that divides the total and is at most 8. */
  var perNodeChosen = false;
  function followTotal() {
    if (perNodeChosen || field("node").value) { return; }
    var total = whole("gpus");
    if (!(total >= 1)) { return; }
    var sizes = Array.prototype.map.call(field("gpus_per_node").options, function (o) { return Number(o.value); });
    var fit = sizes.filter(function (s) { return s <= Math.min(8, total) && total % s === 0; });
    if (fit.length) { field("gpus_per_node").value = String(Math.max.apply(null, fit)); }
  }

  /** "Choose the layout for me": the planner's layout search (CostModel.fastestLayout) at the
   * reader's workload, GPUs, network, sequence, micro-batch and LoRA settings; the layout it finds
   * is written into the form, the knobs it does not search back at their defaults. */
  function chooseLayout() {
    var note = document.getElementById("calc-choose-note");
    var chosen = resolve();
    if (chosen.problem) { note.textContent = say("cannot-search", chosen.problem); return; }
    var w = chosen.inputs[0], cluster = chosen.inputs[1], a = chosen.inputs[3];
    var base = {adapter_rank: whole("adapter_rank"), base_bits: Number(field("base_bits").value)};
    var found = CostModel.fastestLayout(w, cluster, a, {sequence_length: whole("seq"), min_global_batch: whole("global_batch"),
                                                      micro_batch: whole("micro_batch"), base: base});
    if (!found.layout) { note.textContent = say("no-layout", found.why); return; }
    var lay = found.layout;
    field("tp").value = String(lay.tensor_parallel);
    field("pp").value = String(lay.pipeline_parallel);
    field("zero").value = String(lay.zero_stage);
    field("recompute").value = lay.recompute;
    field("recompute_layers").value = String(lay.recompute_layers || 0);
    field("sequence_parallel").checked = lay.sequence_parallel;
    field("global_batch").value = String(lay.global_batch_size);
    field("flash_attention").checked = true;
    field("attention_kernel").value = "flash-attention-2";
    field("virtual_pipeline").value = "1";
    field("cp").value = "1";
    field("shard_group").value = "0";
    field("tp_overlap").value = "0";
    field("ep").value = String(lay.expert_parallel || 1);
    field("etp").value = String(lay.expert_tensor_parallel || 1);
    field("ep_overlap").value = "0";
    field("fp32_gradients").checked = false;
    note.textContent = found.why ? say("least-memory") : say("layout-chosen");
    render();
  }

  // ---- the planner: the answer for the reader's workload, GPU count, market and goal ------------
  var planForm = document.getElementById("calc-plan");
  var planResult = document.getElementById("calc-plan-result");
  var MARKET_STATUS = say("status");

  function labelOf(list, id) {
    var item = byId(list || [], id);
    return item ? (item.name || item.label || id) : id;
  }

  function planRequest() {
    var rank = whole("adapter_rank");
    return {workload: field("workload").value, gpus: whole("gpus"), market: planForm.elements.namedItem("market").value,
            goal: planForm.elements.namedItem("goal").value, licensed: planForm.elements.namedItem("licensed").checked,
            seq: whole("seq"), global_batch: whole("global_batch"), micro_batch: whole("micro_batch"),
            lora_rank: rank > 0 ? rank : null, base_bits: Number(field("base_bits").value)};
  }

  function runPlan() {
    var request = planRequest();
    planResult.textContent = "";
    planResult.hidden = false;
    if (!(request.gpus >= 1)) { planResult.appendChild(el("p", say("gpus-not-whole"), "calc-problem")); return; }
    var answer = CostModel.plan(data, request);
    if (answer.problem) { planResult.appendChild(el("p", say("cannot-plan", answer.problem), "calc-problem")); return; }
    if (!answer.options.length) {
      var none = say("nothing-fits", request.gpus);
      if (answer.fewest) {
        none += say("at-least", answer.fewest.gpus, optionName(answer.fewest.option));
      }
      none = none.trim();
      var p = el("p", none, "calc-note");
      p.setAttribute("data-key", "fewest_gpus");
      p.setAttribute("data-value", answer.fewest ? String(answer.fewest.gpus) : "");
      planResult.appendChild(p);
    } else {
      var t = el("table", null, "calc-table calc-plan-table");
      t.appendChild(el("caption", say("plan-caption")));
      var head = el("tr");
      say("plan-heads").forEach(function (h) { head.appendChild(el("th", h)); });
      var thead = el("thead"); thead.appendChild(head); t.appendChild(thead);
      var tbody = el("tbody");
      answer.options.forEach(function (o, i) {  // first: the answer
        var tr = el("tr");
        tr.setAttribute("data-id", o.id);
        tr.setAttribute("data-step", String(o.estimate.step_time_s));
        tr.appendChild(el("td", (i === 0 ? say("recommended") : "") + optionName(o)));
        tr.appendChild(el("td", fmt(o.estimate.step_time_s), "num"));
        tr.appendChild(el("td", fmt(o.estimate.tokens_per_s), "num"));
        tr.appendChild(el("td", pct(o.estimate.comm_share), "num"));
        var lay = o.layout;
        var experts = (lay.expert_parallel > 1 ? " · EP " + lay.expert_parallel : "") +
          (lay.expert_tensor_parallel > 1 ? " · ETP " + lay.expert_tensor_parallel : "");
        tr.appendChild(el("td", "TP " + lay.tensor_parallel + " · PP " + lay.pipeline_parallel + experts + " · ZeRO-" +
                                lay.zero_stage + " · " + (lay.recompute_layers > 0 ? say("some-layers", lay.recompute_layers)
                                                          : say("recompute")[lay.recompute])));
        tbody.appendChild(tr);
      });
      t.appendChild(tbody);
      var wrap = el("div", null, "calc-box"); wrap.appendChild(t);
      planResult.appendChild(wrap);
    }
    var byRule = {};
    answer.excluded.forEach(function (e) {
      if (e.kind !== "market" || !e.status) { return; }
      var key = say("ruled", MARKET_STATUS[e.status], e.title);
      (byRule[key] = byRule[key] || []).push(labelOf(data.nodes, e.id) !== e.id ? labelOf(data.nodes, e.id)
                                             : labelOf(data.gpus, e.id));
    });
    var keys = Object.keys(byRule);
    if (keys.length) {
      var list = el("ul", null, "calc-plan-excluded");
      keys.forEach(function (k) { list.appendChild(el("li", say("parts", k, byRule[k]))); });
      planResult.appendChild(el("p", say("excluded-intro")));
      planResult.appendChild(list);
    }
  }

  function optionName(o) {
    var where = o.node ? labelOf(data.nodes, o.node) : o.gpus + " × " + labelOf(data.gpus, o.gpu);
    return where + (o.network ? " + " + labelOf(data.networks, o.network) : say("single-node"));
  }

  function startPlanner() {
    if (!planForm || !data.planner || !data.planner.markets.length) { return; }
    var select = planForm.elements.namedItem("market");
    data.planner.markets.forEach(function (m) {
      var option = el("option", m.name);
      option.value = m.id;
      select.appendChild(option);
    });
    document.getElementById("calc-plan-run").addEventListener("click", runPlan);
    planForm.addEventListener("submit", function (event) { event.preventDefault(); });
    planForm.hidden = false;
  }

  // ---- the node select: a node sets and locks the inputs it fills in --------------------------
  var LOCKED = ["gpu", "gpus_per_node", "nics_per_node"];
  var freeValues = null;  // the reader's own values while a node is chosen, restored without one

  /** The GPUs-per-node select offers the free sizes and, while a node is chosen, its size. */
  function sizeOptions(extra) {
    var select = field("gpus_per_node");
    select.textContent = "";
    var sizes = Object.keys(data.gpus.length ? data.gpus[0].scale_up : {}).map(Number);
    if (extra != null && sizes.indexOf(extra) < 0) { sizes.push(extra); }
    sizes.sort(function (a, b) { return a - b; }).forEach(function (size) {
      var option = el("option", String(size));
      option.value = String(size);
      select.appendChild(option);
    });
  }

  function applyNode() {
    var node = byId(data.nodes || [], field("node").value);
    if (!node) {
      if (freeValues) {
        sizeOptions(null);
        LOCKED.forEach(function (name) { field(name).value = freeValues[name]; field(name).disabled = false; });
        freeValues = null;
      }
      return;
    }
    if (!freeValues) {
      freeValues = {};
      LOCKED.forEach(function (name) { freeValues[name] = field(name).value; });
    }
    sizeOptions(node.gpus_per_node);
    field("gpu").value = node.gpu;
    field("gpus_per_node").value = String(node.gpus_per_node);
    field("nics_per_node").value = node.nics_per_node != null ? String(node.nics_per_node) : "";
    LOCKED.forEach(function (name) { field(name).disabled = true; });
    // One whole node when the total no longer fills whole nodes of this size.
    var total = whole("gpus");
    if (!(total >= 1) || total % node.gpus_per_node) { field("gpus").value = String(node.gpus_per_node); }
  }

  function showAssumptions() {
    var box = document.getElementById("calc-assumptions");
    var list = document.getElementById("calc-assumption-items");
    var a = data.assumptions;
    if (!box || !list || a.problem) { return; }
    Object.keys(a.values).forEach(function (name) {
      if (!a.ids[name]) { return; }
      var item = el("li");
      var link = el("a", a.labels[name]);
      link.href = href(a.hrefs[name]);
      item.appendChild(link);
      // the value in its unit, as the cost model page writes it ("10 µs", not 0.00001)
      item.appendChild(document.createTextNode(say("assumption-value", a.shown && a.shown[name] != null ? a.shown[name] : a.values[name])));
      list.appendChild(item);
    });
    box.hidden = false;
  }

  function start(loaded) {
    data = loaded;
    if (!data.workloads.length || !data.gpus.length || !data.networks.length) {
      if (notice) { notice.appendChild(el("p", say("no-inputs"))); }
      return;
    }
    fill(field("workload"), data.workloads, function (w) { return w.spec.name; });
    fill(field("gpu"), data.gpus, function (g) { return g.name; });
    fill(field("network"), data.networks, function (n) { return n.label; });
    fill(field("node"), data.nodes || [], function (n) { return n.name; });
    sizeOptions(null);
    var d = data.defaults;
    // The planner's answer for the middle workload (data.defaults), where the knowledge base gave one
    ["workload", "gpu", "network"].forEach(function (name) {
      if (d[name] && byId(data[name + "s"], d[name])) { field(name).value = d[name]; }
    });
    field("gpus").value = d.gpus;
    field("gpus_per_node").value = String(d.gpus_per_node);
    field("nics_per_node").value = d.nics_per_node || d.gpus_per_node;
    field("tp").value = String(d.tensor_parallel);
    field("pp").value = d.pipeline_parallel;
    field("zero").value = String(d.zero_stage);
    field("micro_batch").value = d.micro_batch_size;
    field("seq").value = d.sequence_length;
    field("global_batch").value = d.global_batch_size;
    field("recompute").value = d.recompute;
    field("recompute_layers").value = d.recompute_layers;
    field("sequence_parallel").checked = d.sequence_parallel;
    field("flash_attention").checked = d.flash_attention;
    field("attention_kernel").value = d.attention_kernel;
    field("virtual_pipeline").value = d.virtual_pipeline;
    field("cp").value = d.context_parallel;
    field("shard_group").value = d.shard_group;
    field("tp_overlap").value = d.tp_overlap;
    field("ep").value = d.expert_parallel;
    field("etp").value = d.expert_tensor_parallel;
    field("ep_overlap").value = d.ep_overlap;
    field("fp32_gradients").checked = d.fp32_gradients;
    field("adapter_rank").value = d.adapter_rank;
    field("base_bits").value = String(d.base_bits);
    field("gpus").addEventListener("input", followTotal);
    document.getElementById("calc-choose").addEventListener("click", chooseLayout);
    field("gpus_per_node").addEventListener("change", function () { perNodeChosen = true; });
    field("node").addEventListener("input", applyNode);
    field("node").addEventListener("change", applyNode);
    form.addEventListener("input", render);
    form.addEventListener("change", render);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    restore();
    startPlanner();
    if (notice) { notice.hidden = true; }
    form.hidden = false;
    showAssumptions();
    render();
    form.classList.add("calc-ready");  // the form is filled and the first result drawn
  }

  fetch(dataLink.href)
    .then(function (response) {
      if (!response.ok) { throw new Error(response.status + " " + response.statusText); }
      return response.json();
    })
    .then(start)
    .catch(function (error) {
      form.hidden = true;
      if (notice) { notice.hidden = false; notice.appendChild(el("p", say("fetch-failed", error.message))); }
    });
}());

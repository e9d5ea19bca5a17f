/*
 * The training cost model, ported from generator/costmodel/ (Python) for the calculator page.
 *
 * A faithful port: every formula is written with the same operations in the same order as its
 * Python counterpart (named in the comment above it), on the same IEEE doubles, so the two give
 * equal numbers; tests/test_costmodel_js.py runs generated cases through both and requires equal
 * results to a relative 1e-9. Change a formula in Python, change it here in the same commit.
 *
 * Inputs use the Python records' field names (inputs.py: Workload, GpuSpec, Node, Cluster,
 * Layout, Assumptions). `estimate` returns report.outputs()'s object: the documented JSON keys
 * of `python -m generator estimate --format json` (README, "Cost model"), or `problems`.
 * Messages are in the page's language (its <html lang>: Chinese, or English in the words of the
 * Python model's own messages); codes and fields equal the Python ones.
 *
 * Pure functions, no DOM: it runs in Node (module.exports) and in the browser (window.CostModel).
 */
(function (root) {
  "use strict";

  var GB = 1e9;
  var ACTIVATION_BYTES = 2.0; // traffic.py: 16-bit activations

  // ---- shape.py ----------------------------------------------------------------------------
  function ffnHiddenSize(w) { return w.ffn_hidden_size == null ? 4 * w.hidden_size : w.ffn_hidden_size; }
  function kvHeads(w) { return w.kv_heads == null ? w.attention_heads : w.kv_heads; }
  function mlpMatrices(w) { return w.gated_mlp ? 3.0 : 2.0; }
  function kvWidth(hidden, heads, kv) { return kv * hidden / heads; }
  function widthRatio(hidden, kvHidden, ffn, matrices) {
    return (2.0 * hidden + 2.0 * kvHidden + matrices * ffn) / (12.0 * hidden);
  }
  function widthRatioOf(w) {
    var h = w.hidden_size;
    if (extended(w)) { return (attentionWeights(w) + mlpWeights(w, true)) / (12.0 * h * h); }
    return widthRatio(h, kvWidth(h, w.attention_heads, kvHeads(w)), ffnHiddenSize(w), mlpMatrices(w));
  }

  // ---- experts.py (and shape.py's extended blocks) -------------------------------------------
  function extended(w) { return w.head_dim != null || w.mla != null || w.moe != null; }
  function headWidth(w) { return w.head_dim != null ? w.head_dim : w.hidden_size / w.attention_heads; }
  // head_attention_weights, latent_attention_weights(_direct)
  function attentionWeights(w) {
    var h = w.hidden_size, a = w.attention_heads, m = w.mla;
    if (m) {
      var q = m.q_lora_rank, kv = m.kv_lora_rank, n = m.qk_nope_head_dim, r = m.qk_rope_head_dim, v = m.v_head_dim;
      if (q > 0) { return h * q + q * a * (n + r) + h * (kv + r) + kv * a * (n + v) + a * v * h; }
      return h * a * (n + r) + h * (kv + r) + kv * a * (n + v) + a * v * h;
    }
    var d = headWidth(w);
    return 2.0 * h * (a * d) + 2.0 * h * (kvHeads(w) * d);
  }
  // shape.score_width_from: the attention core's width (null: h itself)
  function scoreWidth(w) {
    if (w.mla) { return w.attention_heads * (w.mla.qk_nope_head_dim + w.mla.qk_rope_head_dim + w.mla.v_head_dim) / 2.0; }
    return w.head_dim != null ? w.attention_heads * headWidth(w) : null;
  }
  // shape.mlp_weights_from: a layer's MLP weights averaged over the layers (active: those a token passes through)
  function mlpWeights(w, active) {
    var n = mlpMatrices(w), h = w.hidden_size, dense = n * h * ffnHiddenSize(w), m = w.moe;
    if (!m) { return dense; }
    var moe = active ? (m.experts_per_token + m.shared_experts) * n * h * m.expert_ffn_hidden_size + h * m.experts
      : (m.experts + m.shared_experts) * n * h * m.expert_ffn_hidden_size + h * m.experts;
    return (m.dense_layers * dense + (w.layers - m.dense_layers) * moe) / w.layers;
  }
  function spread(w, layout) { return w.moe != null && layout.expert_parallel > 1; }
  // inputs.Layout expert_tensor_parallel: the GPUs each spread expert is split over (1 where a page leaves it out)
  function etpOf(layout) { return layout.expert_tensor_parallel == null ? 1 : layout.expert_tensor_parallel; }
  // experts.py routed_parameters: Ψ_E, the routed experts' parameters
  function routedParameters(w) {
    var m = w.moe;
    return (w.layers - m.dense_layers) * m.experts * mlpMatrices(w) * w.hidden_size * m.expert_ffn_hidden_size;
  }
  // leaves.expert_split: [outside the routed experts, routed experts] per GPU, or null
  function expertSplit(w, layout) {
    if (!spread(w, layout)) { return null; }
    var psi = w.parameter_count, psiE = routedParameters(w);
    var Lp = layersOf(w, layout);
    if (Lp !== w.layers) { psi = pacedParameters(psi, Lp, w.layers); psiE = pacedParameters(psiE, Lp, w.layers); }
    return [(psi - psiE) / (layout.tensor_parallel * layout.pipeline_parallel),
            psiE / (expertBlock(layout) * layout.pipeline_parallel)];
  }
  // leaves.experts block: the consecutive GPUs that hold a layer's experts once, e or e·t_e
  function expertBlock(layout) { return layout.expert_parallel * etpOf(layout); }
  function expertDataParallel(layout, dpGrad) { return layout.tensor_parallel * dpGrad / expertBlock(layout); }
  var WIDE_COEFFICIENT = {none: 12.0, selective: 16.0, full: 16.0};

  // ---- memory.py ---------------------------------------------------------------------------
  function parametersPerGpu(parameters, t, p) { return parameters / (t * p); }
  function replicatedBytes(parameters, perParameter) { return parameters * perParameter; }
  function partitionedBytes(parameters, perParameter, dp) { return parameters * perParameter / dp; }
  var ACTIVATIONS_PER_LAYER = {
    "none,false": function (s, b, h, a, t, r) { return s * b * h * (10.0 + 24.0 * r / t + 5.0 * a * s / (h * t)); },
    "none,true": function (s, b, h, a, t, r) { return s * b * h * ((10.0 + 24.0 * r) / t + 5.0 * a * s / (h * t)); },
    "selective,false": function (s, b, h, a, t, r) { return s * b * h * (10.0 + 24.0 * r / t); },
    "selective,true": function (s, b, h, a, t, r) { return s * b * h * ((10.0 + 24.0 * r) / t); },
    "full,false": function (s, b, h) { return 2.0 * s * b * h; },
    "full,true": function (s, b, h) { return 2.0 * s * b * h; }
  };
  // memory.py ACTIVATIONS_FLASH: FlashAttention stores no s×s scores
  var ACTIVATIONS_FLASH = {
    "none,false": ACTIVATIONS_PER_LAYER["selective,false"],
    "none,true": ACTIVATIONS_PER_LAYER["selective,true"],
    "selective,false": ACTIVATIONS_PER_LAYER["selective,false"],
    "selective,true": ACTIVATIONS_PER_LAYER["selective,true"],
    "full,false": ACTIVATIONS_PER_LAYER["full,false"],
    "full,true": ACTIVATIONS_PER_LAYER["full,true"]
  };
  function activationLayersHeld(layers, p, m) { return layers / p * Math.min(p, m); }
  function activationLayersHeldInterleaved(layers, p, m, v) {
    return layers / p * Math.min(m, p + (p - 1.0) / v);
  }
  function pacedParameters(parameters, paced, layers) { return parameters * paced / layers; }
  // compute.py paced_layers: p·v·⌈L/(p·v)⌉ (the layer count itself when p·v divides it)
  function pacedLayers(layers, p, v) { return p * v * Math.ceil(layers / (p * v)); }
  function layersOf(w, layout) {
    var p = layout.pipeline_parallel, v = layout.virtual_pipeline;
    return w.layers % (p * v) ? pacedLayers(w.layers, p, v) : w.layers;
  }
  function paramsPerGpu(w, layout) {
    var split = expertSplit(w, layout);
    if (split) { return split[0] + split[1]; }
    var uneven = w.layers % (layout.pipeline_parallel * layout.virtual_pipeline);
    var psi = uneven ? pacedParameters(w.parameter_count, layersOf(w, layout), w.layers) : w.parameter_count;
    return parametersPerGpu(psi, layout.tensor_parallel, layout.pipeline_parallel);
  }
  function gradientBytes(layout, a) { return layout.fp32_gradients ? 4.0 : a.gradient_bytes_per_parameter; }
  // memory.py adapter_parameters (LoRA): A and B of rank r on Q, K, V, the projection and the MLP matrices
  function adaptersPerGpu(w, layout) {
    if (!(layout.adapter_rank > 0)) { return null; }
    var h = w.hidden_size, total = layout.adapter_rank * (6.0 * h + 2.0 * kvWidth(h, w.attention_heads, kvHeads(w)) +
      mlpMatrices(w) * (h + ffnHiddenSize(w))) * w.layers;
    var Lp = layersOf(w, layout);
    if (Lp !== w.layers) { total = pacedParameters(total, Lp, w.layers); }
    return parametersPerGpu(total, layout.tensor_parallel, layout.pipeline_parallel);
  }
  // memory.py lora_weight_bytes: the frozen base at its bits, the adapters at the weight bytes
  function loraWeights(psi, adapters, layout, a) {
    return psi * (layout.base_bits / 8.0) + adapters * a.weight_bytes_per_parameter;
  }

  // ---- compute.py --------------------------------------------------------------------------
  function modelFlop(B, s, L, h, V, r) {
    return 72.0 * B * s * L * h * h * (r + s / (6.0 * h) + V / (12.0 * L * h));
  }
  var EXECUTED_FLOP = {
    none: modelFlop,
    selective: function (B, s, L, h, V, r) {
      return (72.0 * B * s * L * h * h * (r + s / (6.0 * h) + V / (12.0 * L * h))
              + 4.0 * B * s * s * L * h);
    },
    full: function (B, s, L, h, V, r) {
      return 96.0 * B * s * L * h * h * (r + s / (6.0 * h) + V / (16.0 * L * h));
    }
  };
  function flashBackwardFlop(B, s, L, h) { return 2.0 * B * s * s * L * h; }
  function perGpu(flop, t, p) { return flop / (t * p); }
  function gemmIntensity(M, K, N, e) { return 2.0 * M * K * N / (e * (M * K + K * N + M * N)); }
  function ridgeIntensity(peak, bandwidth) { return peak / bandwidth; }
  function gemmEfficiency(max, intensity, half, ridge) { return max * intensity / (intensity + half * ridge); }
  function secondsAtRate(flop, peak, efficiency) { return flop / (peak * efficiency); }
  var PASSES = {none: 3.0, selective: 3.0, full: 4.0};
  var ATTENTION_COEFFICIENT = {none: 12.0, selective: 16.0, full: 16.0};
  function memoryBoundBytes(c, b, s, h, L, p, n) { return c * b * s * h * (L / p) * n; }
  function memoryBoundBytesSplit(c, b, s, h, L, p, n, t) { return c * b * s * h * (L / p) * n / t; }

  // ---- collectives.py ----------------------------------------------------------------------
  function collectivesPhaseS(c, latency, n, size, bandwidth) {
    if (n <= 1.0) { return c * latency; }
    return c * latency + (n - 1.0) / n * size / bandwidth;
  }
  function ringAllReduceS(n, size, bandwidth, alpha) {
    if (n <= 1.0) { return 0.0; }
    return 2.0 * (n - 1.0) * alpha + 2.0 * (n - 1.0) / n * size / bandwidth;
  }
  function sendRecvS(size, bandwidth, alpha) { return alpha + size / bandwidth; }
  function networkBandwidthPerGpu(nics, port, g, efficiency, fabric) { return nics * port / g * efficiency * fabric; }

  // ---- traffic.py --------------------------------------------------------------------------
  var GRADIENT_PHASES = [function () { return 2.0; }, function () { return 1.0; },
                         function (m) { return m; }, function (m) { return m; }];
  var WEIGHT_PHASES = [function () { return 0.0; }, function () { return 1.0; },
                       function () { return 1.0; }, function (m) { return 2.0 * m; }];
  function phasesS(ng, tg, nw, tw) { return ng * tg + nw * tw; }
  function tpCollectivesPerLayer(recompute) { return recompute === "full" ? 6.0 : 4.0; }
  function tpMicrobatchS(collectives, layers, p, allReduce) { return collectives * (layers / p) * allReduce; }
  function ppMicrobatchS(p, send) { return 2.0 * Math.min(p - 1.0, 1.0) * send; }
  function ppMicrobatchInterleavedS(p, v, send) { return 2.0 * Math.min(p - 1.0, 1.0) * v * send; }

  // ---- step.py -----------------------------------------------------------------------------
  var OVERLAP_WINDOW = [
    function (m, bwd) { return bwd; }, function (m, bwd) { return bwd; },
    function (m, bwd) { return m * bwd; }, function (m, bwd, fwd) { return m * (fwd + bwd); }];
  function slotsS(m, p, t) { return (m + p - 1.0) * t; }
  function slotsInterleavedS(m, p, v, t) { return (m + (p - 1.0) / v) * t; }
  function exposedTpS(tp, overlap, compute) { return tp - Math.min(overlap * tp, compute); }
  function exposedPartS(exposed, link, dp) { return dp <= 0.0 ? 0.0 : exposed * link / dp; }
  function bottleneck(fits, compute, intra, net) {
    if (!fits) { return "memory"; }
    if (compute >= intra && compute >= net) { return "compute"; }
    return intra >= net ? "intra_node" : "network";
  }

  // ---- feasibility.py (codes and fields as in Python; messages in the page's language) ---------
  function problem(code, field, message) { return {code: code, field: field, message: message}; }
  // feasibility.py MAX_COUNT (Number.MAX_SAFE_INTEGER): a double holds whole numbers exactly up to 2^53
  var MAX_COUNT = 9007199254740991, MIN_NORMAL = 2.2250738585072014e-308;

  // ---- the words: one table per language, chosen by the page's <html lang> ("zh" or "en"; Material
  // sets it from the theme's language). Keys name what is said; an entry is a string, a table or a
  // function of the figures it says. The English messages are the Python model's own
  // (feasibility.py, wiring.py), so the English page says what `estimate` says.
  function language() {
    var doc = typeof document !== "undefined" ? document : null;
    var lang = doc && doc.documentElement && doc.documentElement.lang || "";
    return lang.slice(0, 2) === "en" ? "en" : "zh";
  }
  function quoted(x) { return "'" + x + "'"; }  // Python's repr of a string
  var TEXT = {
    zh: {
      "count-below-one": function (f, v) { return f + " 为 " + v + "，应为不小于 1 的整数"; },
      "count-too-large": function (f) { return f + " 过大：模型接受的计数最多为 2^53 − 1（9,007,199,254,740,991）"; },
      "not-positive": function (f, v) { return f + " 为 " + v + "，应大于 0"; },
      "not-normal": function (f, v) { return f + " 为 " + v + "，应为不小于 " + MIN_NORMAL + " 的有限数"; },
      "fraction-out-of-range": function (f, v, interval) { return f + " 为 " + v + "，应在 " + interval + " 之内"; },
      "negative-position-embeddings": function () { return "位置嵌入行数不能为负"; },
      "negative-recompute-layers": function () { return "重计算层数不能为负（0 表示每层都重计算）"; },
      "recompute-layers-without-full": function (n, r) {
        return "每块只重计算 " + n + " 层，是对这些层的完全重计算；布局的重计算方式是 " + r;
      },
      "norm": function () { return "归一化方式只能是 layernorm 或 rmsnorm"; },
      "cudnn-attention-speedup": function () { return "cuDNN 注意力的加速倍数乘 FlashAttention-2 的利用率超过了峰值"; },
      "zero-stage": function () { return "ZeRO 阶段只有 0、1、2、3"; },
      "recompute": function () { return "重计算只能是 none、selective 或 full"; },
      "precision": function () { return "精度只能是 bf16 或 fp8"; },
      "adapter-rank": function () { return "适配器的秩不能为负"; },
      "base-bits": function () { return "冻结的基座权重只能是 16、8 或 4 位"; },
      "base-bits-without-adapters": function () { return "量化的基座权重是冻结的，要训练就需要适配器"; },
      "zero-gather": function () { return "ZeRO 收集方式只能是 layer 或 tensor-sync"; },
      "zero-gather-without-zero-3": function () { return "逐张量同步收集只用于 ZeRO-3"; },
      "fp8-param-gather-without-fp8": function () { return "以 FP8 收集权重需要线性层用 FP8 精度"; },
      "fp8-param-gather-with-adapters": function () { return "LoRA 收集的是 16 位的适配器，以 FP8 收集权重只用于全量训练"; },
      "attention-kernel": function () { return "注意力内核只能是 flash-attention-2 或 cudnn"; },
      "negative-assumption": function (k) { return "assumptions." + k + " 不能为负"; },
      "not-normal-share": function (k, v) { return "assumptions." + k + " 为 " + v + "，作除数的比例过小"; },
      "expert-imbalance": function () { return "专家负载不均系数应为不小于 1 的有限数（1 为均衡）"; },
      "negative-q-lora-rank": function () { return "查询潜向量的秩不能为负（0 表示不压缩查询）"; },
      "negative-moe": function (k) { return "workload.moe." + k + " 不能为负"; },
      "experts-per-token": function (k, n) { return "每个 token 的专家数 " + k + " 多于专家总数 " + n; },
      "dense-layers": function (d, layers) { return d + " 个稠密层占满了全部 " + layers + " 层，没有层留给专家"; },
      "expert-parallel-without-experts": function (e, name) { return "专家并行 " + e + " 需要混合专家负载；" + name + " 是稠密模型"; },
      "unmodelled": {"linear-biases": "线性层偏置", "context-parallel": "上下文并行", adapters: "LoRA 适配器",
                     "tensor-sync": "逐张量的 ZeRO-3 收集", "expert-shards": "专家的混合分片",
                     "spread-zero-3": "专家分散时的 ZeRO-3"},
      "not-modelled": function (what) { return "模型不估算混合专家、潜在注意力或显式头宽与" + what + "的组合"; },
      "not-modelled-context": function (what) { return "模型不估算潜在注意力或显式头宽与" + what + "的组合"; },
      "expert-tensor-parallel": function (te, t) { return "专家张量并行 " + te + " 只能是 1 或张量并行度 " + t; },
      "expert-tensor-parallel-unspread": function (te) {
        return "专家张量并行 " + te + " 切分分散到专家并行 GPU 上的专家（专家并行大于 1）；专家并行为 1 时专家像普通 MLP 一样按张量并行切分";
      },
      "tensor-parallel-heads": function (t, heads) { return "张量并行 " + t + " 不能整除 " + heads + " 个注意力头"; },
      "heads-hidden": function (heads, hidden) { return heads + " 个注意力头不能整除隐藏维度 " + hidden; },
      "kv-heads-heads": function (kv, heads) { return kv + " 个键值头不能把 " + heads + " 个注意力头分成相等的组"; },
      "tensor-parallel-kv-heads": function (t, kv) { return "张量并行 " + t + " 不能整除 " + kv + " 个键值头"; },
      "tensor-parallel-ffn": function (t, ffn) { return "张量并行 " + t + " 不能整除 MLP 宽度 " + ffn; },
      "tensor-parallel-exceeds-node": function (t, g) {
        return "张量并行 " + t + " 超过每节点的 " + g + " 块 GPU；张量并行组必须在一个节点之内";
      },
      "tensor-parallel-splits-node": function (t, g) { return "张量并行 " + t + " 不能整除每节点的 " + g + " 块 GPU"; },
      "pipeline-exceeds-layers": function (p, v, layers) {
        return "流水线并行 " + p + " × 虚拟流水线 " + v + " = " + (p * v) + " 个阶段多于 " + layers + " 层加嵌入与输出层各一段";
      },
      "interleave-without-pipeline": function (v) { return "虚拟流水线 " + v + " 需要流水线并行大于 1"; },
      "fp8-unavailable": function (name) { return name + " 没有稠密 FP8 算力数据"; },
      "context-parallel-sequence": function (c, s) { return "上下文并行 " + c + " 不能整除 " + s + " 个 token 的序列"; },
      "gpus-indivisible": function (gpus, cp, product) {
        return gpus + " 块 GPU 不是 张量并行 × 流水线并行" + (cp ? " × 上下文并行" : "") + " = " + product + " 的整数倍";
      },
      "data-parallel-placement": function (cp, stage, g) {
        return "一个流水线阶段占 t × " + (cp ? "c × " : "") + "N_d = " + stage + " 块 GPU，既不能整除也不是每节点 " + g + " 块的整数倍";
      },
      "batch-indivisible": function (batch, dp, micro, perStep) {
        return "全局批大小 " + batch + " 不是 数据并行 " + dp + " × 微批 " + micro + " = " + perStep + " 的整数倍";
      },
      "interleave-microbatches": function (m, p) { return "交错调度要求每步微批数 " + m + " 能被流水线并行 " + p + " 整除"; },
      "expert-parallel-experts": function (e, n) { return "专家并行 " + e + " 不能整除 " + n + " 个专家"; },
      "expert-parallel-stage": function (e, n, block) {
        return (block === e ? "专家并行 " + e : "专家并行 × 专家张量并行 " + block) + " 不能整除一个流水线阶段的 " + n + " 块 GPU";
      },
      "expert-parallel-placement": function (e, g, block) {
        return (block === e ? "专家并行 " + e : "专家并行 × 专家张量并行 " + block) + " 既不能整除也不是每节点 " + g +
          " 块 GPU 的整数倍";
      },
      "shard-group": function (size, ranks) { return "分片组 " + size + " 不能整除归约梯度的 " + ranks + " 个数据并行 rank"; },
      "shard-group-placement": function (size, peers) {
        return "分片组 " + size + " 既不能整除也不是一个节点内 " + peers + " 个数据并行 rank 的整数倍";
      },
      "shard-group-without-zero": "分片组需要 ZeRO 阶段 1 或以上：阶段 0 不切分任何状态",
      "one-node": "集群只有一个节点",
      "no-reference-exceeds": function (product, replica, g) {
        return "没有单节点参照：一个模型副本需要 " + product + " = " + replica + " 块 GPU，多于每节点的 " + g + " 块";
      },
      "no-reference-splits": function (product, replica, g) {
        return "没有单节点参照：" + product + " = " + replica + " 块 GPU 的模型副本不能整除每节点的 " + g + " 块";
      },
      "reference": function (batch) { return "以单节点每步 " + batch + " 条序列为参照"; },
      "not-finite": "估算结果不是有限数：配置里的某个计数或数字超出了模型能计算的范围",
      "unknown-node": function (id) { return "未知的节点 " + id; },
      "node-fields": {gpu: "GPU", gpus_per_node: "每节点 GPU 数", nics_per_node: "每节点网卡数"},
      "node-disagrees": function (what, asked, id, has) { return what + " " + asked + " 与节点 " + id + " 不符（该节点为 " + has + "）"; },
      "unknown-workload": "未知的负载",
      "unknown-gpu-or-network": "未知的 GPU 或网络",
      "count-fields": {gpus: "GPU 总数", gpus_per_node: "每节点 GPU 数", nics_per_node: "每节点网卡数"},
      "count-not-whole": function (what) { return what + "应为不小于 1 的整数"; },
      "gpus-fill-nodes": function (gpus, perNode) { return gpus + " 块 GPU 不能正好装满每节点 " + perNode + " 块的节点"; },
      "no-scale-up": function (perNode) { return "没有每节点 " + perNode + " 块 GPU 的机内互连数据"; },
      "unknown-market": "未知的市场",
      "unknown-goal": "未知的目标"
    },
    en: {
      "count-below-one": function (f, v) { return f + " is " + v + "; it must be a whole number of at least 1"; },
      "count-too-large": function (f) { return f + " is beyond 2^53 − 1 (9,007,199,254,740,991), the largest count the model takes"; },
      "not-positive": function (f, v) { return f + " is " + v + "; it must be greater than 0"; },
      // Python's `sys.float_info.min:g`
      "not-normal": function (f, v) { return f + " is " + v + "; it must be a finite number of at least 2.22507e-308"; },
      "fraction-out-of-range": function (f, v, interval) { return f + " is " + v + "; it must lie in " + interval; },
      "negative-position-embeddings": function (v) { return "workload.position_embeddings is " + v + "; it must not be negative"; },
      "negative-recompute-layers": function (v) {
        return "layout.recompute_layers is " + v + "; it must not be negative (0: every layer)";
      },
      "recompute-layers-without-full": function (n, r) {
        return "recomputing " + n + " layers of each chunk is full recomputation of those layers; the layout's recompute is " +
          quoted(r);
      },
      "norm": function (norm) { return "norm " + quoted(norm) + " is not layernorm or rmsnorm"; },
      "cudnn-attention-speedup": function (speedup, efficiency) {
        return "gpu.cudnn_attention_speedup " + speedup + " times FlashAttention-2's " + efficiency +
               " exceeds the peak; the product must lie in (0, 1]";
      },
      "zero-stage": function (z) { return "ZeRO stage " + z + " does not exist; use 0, 1, 2 or 3"; },
      "recompute": function (r) { return "recompute " + quoted(r) + " is not none, selective or full"; },
      "precision": function (p) { return "precision " + quoted(p) + " is not bf16 or fp8"; },
      "adapter-rank": function (r) { return "adapter rank " + r + " is below 0"; },
      "base-bits": function (b) { return "a frozen base weight takes 16, 8 or 4 bits, not " + b; },
      "base-bits-without-adapters": function (b) {
        return "a " + b + "-bit base is frozen: it needs adapters (adapter rank above 0) to train";
      },
      "zero-gather": function (g) { return "ZeRO gather " + quoted(g) + " is not layer or tensor-sync"; },
      "fp8-param-gather-without-fp8": function (p) {
        return "FP8 weights gathered in FP8 need FP8 linear layers; the layout's precision is " + p;
      },
      "fp8-param-gather-with-adapters": function () {
        return "LoRA gathers its 16-bit adapters, not FP8 weights: FP8 weight gathers need full training";
      },
      "zero-gather-without-zero-3": function (z) {
        return "per-tensor synchronous gathers are ZeRO-3's; the layout runs ZeRO stage " + z;
      },
      "attention-kernel": function (k) { return "attention kernel " + quoted(k) + " is not flash-attention-2 or cudnn"; },
      "negative-assumption": function (k, v) { return "assumptions." + k + " is " + v + "; it must not be negative"; },
      "not-normal-share": function (k, v) {
        return "assumptions." + k + " is " + v + "; a share the model divides by must be at least 2.22507e-308";
      },
      "expert-imbalance": function (x) { return "expert imbalance " + x + " must be a finite number of at least 1 (1: balanced)"; },
      "negative-q-lora-rank": function (v) {
        return "workload.mla.q_lora_rank is " + v + "; it must not be negative (0: no query latent)";
      },
      "negative-moe": function (k, v) { return "workload.moe." + k + " is " + v + "; it must not be negative"; },
      "experts-per-token": function (k, n) { return k + " experts per token exceed the " + n + " experts"; },
      "dense-layers": function (d, layers) { return d + " dense layers leave none of the " + layers + " layers to experts"; },
      "expert-parallel-without-experts": function (e, name) {
        return "expert parallel " + e + " needs a mixture-of-experts workload; " + name + " is dense";
      },
      "unmodelled": {"linear-biases": "linear biases", "context-parallel": "context parallelism", adapters: "LoRA adapters",
                     "tensor-sync": "per-tensor ZeRO-3 gathers", "expert-shards": "hybrid sharding of experts",
                     "spread-zero-3": "ZeRO-3 over spread experts"},
      "not-modelled": function (what) {
        return "the model does not estimate " + what + " with experts, latent attention or an explicit head width";
      },
      "not-modelled-context": function (what) {
        return "the model does not estimate " + what + " with latent attention or an explicit head width";
      },
      "expert-tensor-parallel": function (te, t) {
        return "expert tensor parallel " + te + " is neither 1 nor the tensor-parallel size " + t;
      },
      "expert-tensor-parallel-unspread": function (te) {
        return "expert tensor parallel " + te + " splits experts spread over expert-parallel GPUs (ep above 1); with ep 1 " +
          "the experts are split over the tensor-parallel group like any MLP";
      },
      "tensor-parallel-heads": function (t, heads) { return "tensor parallel " + t + " does not divide the " + heads + " attention heads"; },
      "heads-hidden": function (heads, hidden) { return heads + " heads do not divide the hidden size " + hidden; },
      "kv-heads-heads": function (kv, heads) {
        return kv + " key/value heads do not divide the " + heads + " attention heads into equal groups";
      },
      "tensor-parallel-kv-heads": function (t, kv) { return "tensor parallel " + t + " does not divide the " + kv + " key/value heads"; },
      "tensor-parallel-ffn": function (t, ffn) { return "tensor parallel " + t + " does not divide the MLP width " + ffn; },
      "tensor-parallel-exceeds-node": function (t, g) {
        return "tensor parallel " + t + " exceeds the " + g + " GPUs of a node; a tensor-parallel group must sit in one node";
      },
      "tensor-parallel-splits-node": function (t, g) { return "tensor parallel " + t + " does not divide the " + g + " GPUs of a node"; },
      "pipeline-exceeds-layers": function (p, v, layers) {
        return "pipeline parallel " + p + " × virtual pipeline " + v + " = " + (p * v) + " stages exceed the " + layers +
               " layers and the embedding's and the logits' stages";
      },
      "interleave-without-pipeline": function (v) { return "virtual pipeline " + v + " needs pipeline parallel above 1"; },
      "fp8-unavailable": function (name) { return name + " has no dense FP8 rate"; },
      "context-parallel-sequence": function (c, s) {
        return "context parallel " + c + " does not divide the sequence of " + s + " tokens";
      },
      "gpus-indivisible": function (gpus, cp, product) {
        return "the " + gpus + " GPUs are not a multiple of " +
               (cp ? "tensor × pipeline × context parallel" : "tensor × pipeline parallel") + " = " + product;
      },
      "data-parallel-placement": function (cp, stage, g) {
        return "a pipeline stage spans t × " + (cp ? "c × " : "") + "N_d = " + stage +
               " GPUs, which neither divides nor is a multiple of the " + g + " GPUs of a node";
      },
      "batch-indivisible": function (batch, dp, micro, perStep) {
        return "global batch " + batch + " is not a multiple of data parallel " + dp + " × micro-batch " + micro + " = " + perStep;
      },
      "interleave-microbatches": function (m, p) {
        return "the interleaved schedule needs micro-batches per step (" + m + ") divisible by pipeline parallel " + p;
      },
      "expert-parallel-experts": function (e, n) { return "expert parallel " + e + " does not divide the " + n + " experts"; },
      "expert-parallel-stage": function (e, n, block) {
        return (block === e ? "expert parallel " + e : "expert × expert tensor parallel " + block) +
          " does not divide the " + n + " GPUs of a pipeline stage";
      },
      "expert-parallel-placement": function (e, g, block) {
        return (block === e ? "expert parallel " + e : "expert × expert tensor parallel " + block) +
          " neither divides nor is a multiple of the " + g + " GPUs of a node";
      },
      "shard-group": function (size, ranks) {
        return "shard group " + size + " does not divide the " + ranks + " ranks that reduce the gradients";
      },
      "shard-group-placement": function (size, peers) {
        return "shard group " + size + " neither divides nor is a multiple of the " + peers + " data-parallel ranks in a node";
      },
      "shard-group-without-zero": "a shard group needs a ZeRO stage of 1 or more: stage 0 partitions nothing",
      "one-node": "the cluster is one node",
      "no-reference-exceeds": function (product, replica, g) {
        return "no one-node reference: a model replica needs " + product + " = " + replica + " GPUs, more than a node's " + g;
      },
      "no-reference-splits": function (product, replica, g) {
        return "no one-node reference: a model replica of " + product + " = " + replica + " GPUs does not divide a node's " + g;
      },
      "reference": function (batch) { return "against one node running " + batch + " sequences per step"; },
      "not-finite": "the estimate is not finite: a count or figure of the configuration is beyond what the model can compute with",
      "unknown-node": function (id) { return "unknown node " + id; },
      "node-fields": {gpu: "GPU", gpus_per_node: "GPUs per node", nics_per_node: "NICs per node"},
      "node-disagrees": function (what, asked, id, has) { return what + " " + asked + " disagrees with node " + id + ", which has " + has; },
      "unknown-workload": "unknown workload",
      "unknown-gpu-or-network": "unknown GPU or network",
      "count-fields": {gpus: "GPUs in total", gpus_per_node: "GPUs per node", nics_per_node: "NICs per node"},
      "count-not-whole": function (what) { return what + " must be a whole number of at least 1"; },
      "gpus-fill-nodes": function (gpus, perNode) { return gpus + " GPUs do not fill whole nodes of " + perNode; },
      "no-scale-up": function (perNode) { return "no intra-node interconnect data for " + perNode + " GPUs per node"; },
      "unknown-market": "unknown market",
      "unknown-goal": "unknown goal"
    }
  };
  /** What the page says under `key` in its language: the entry itself, or the entry applied to the
   * figures that follow the key. */
  function say(key) {
    var entry = TEXT[language()][key];
    return typeof entry === "function" ? entry.apply(null, Array.prototype.slice.call(arguments, 1)) : entry;
  }

  function atLeastOne(out, field, value) {
    if (value < 1) { out.push(problem("count-below-one", field, say("count-below-one", field, value))); }
    else if (!(value <= MAX_COUNT)) { tooLarge(out, field); }
  }
  // feasibility.py _at_most_max: a count that may be 0 (a LoRA rank, shared experts) is bounded too
  function atMostMax(out, field, value) { if (value > MAX_COUNT) { tooLarge(out, field); } }
  function tooLarge(out, field) {
    out.push(problem("count-too-large", field, say("count-too-large", field)));
  }
  function positive(out, field, value) {
    if (!(value > 0.0)) { out.push(problem("not-positive", field, say("not-positive", field, value))); }
    else if (!isFinite(value) || value < MIN_NORMAL) {
      out.push(problem("not-normal", field, say("not-normal", field, value)));
    }
  }
  function fraction(out, field, value, zeroOk, oneOk) {
    var low = zeroOk ? value >= 0.0 : value > 0.0;
    var high = oneOk ? value <= 1.0 : value < 1.0;
    if (!(low && high)) {
      var interval = (zeroOk ? "[" : "(") + "0, 1" + (oneOk ? "]" : ")");
      out.push(problem("fraction-out-of-range", field, say("fraction-out-of-range", field, value, interval)));
    }
  }
  function domain(w, cluster, layout, a) {
    var out = [], node = cluster.node, gpu = node.gpu;
    positive(out, "workload.parameter_count", w.parameter_count);
    ["layers", "hidden_size", "attention_heads", "vocabulary_size"].forEach(function (k) {
      atLeastOne(out, "workload." + k, w[k]);
    });
    ["ffn_hidden_size", "kv_heads"].forEach(function (k) {
      if (w[k] != null) { atLeastOne(out, "workload." + k, w[k]); }
    });
    if (w.position_embeddings < 0) {
      out.push(problem("negative", "workload.position_embeddings", say("negative-position-embeddings", w.position_embeddings)));
    }
    atMostMax(out, "workload.position_embeddings", w.position_embeddings);
    if (w.norm !== "layernorm" && w.norm !== "rmsnorm") {
      out.push(problem("norm", "workload.norm", say("norm", w.norm)));
    }
    positive(out, "gpu.memory_capacity_bytes", gpu.memory_capacity_bytes);
    positive(out, "gpu.memory_bandwidth_bytes_per_s", gpu.memory_bandwidth_bytes_per_s);
    positive(out, "gpu.dense_bf16_flop_per_s", gpu.dense_bf16_flop_per_s);
    if (gpu.flash_attention_efficiency != null) {
      fraction(out, "gpu.flash_attention_efficiency", gpu.flash_attention_efficiency, false, true);
    }
    if (gpu.cudnn_attention_speedup != null) {
      positive(out, "gpu.cudnn_attention_speedup", gpu.cudnn_attention_speedup);
      if (gpu.flash_attention_efficiency != null && layout.flash_attention && layout.attention_kernel === "cudnn" &&
          gpu.flash_attention_efficiency * gpu.cudnn_attention_speedup > 1.0) {
        out.push(problem("fraction-out-of-range", "gpu.cudnn_attention_speedup",
                         say("cudnn-attention-speedup", gpu.cudnn_attention_speedup, gpu.flash_attention_efficiency)));
      }
    }
    atLeastOne(out, "node.gpus_per_node", node.gpus_per_node);
    positive(out, "node.scale_up_per_direction_bytes_per_s", node.scale_up_per_direction_bytes_per_s);
    atLeastOne(out, "cluster.node_count", cluster.node_count);
    fraction(out, "cluster.fabric_bandwidth_fraction", cluster.fabric_bandwidth_fraction, false, true);
    if (cluster.node_count > 1) {
      atLeastOne(out, "node.nics_per_node", node.nics_per_node);
      positive(out, "node.nic_port_per_direction_bytes_per_s", node.nic_port_per_direction_bytes_per_s);
    } else {
      atMostMax(out, "node.nics_per_node", node.nics_per_node);
    }
    ["tensor_parallel", "pipeline_parallel", "micro_batch_size", "sequence_length", "global_batch_size",
     "virtual_pipeline", "context_parallel"]
      .forEach(function (k) { atLeastOne(out, "layout." + k, layout[k]); });
    if ([0, 1, 2, 3].indexOf(layout.zero_stage) < 0) {
      out.push(problem("zero-stage", "layout.zero_stage", say("zero-stage", layout.zero_stage)));
    }
    if (["none", "selective", "full"].indexOf(layout.recompute) < 0) {
      out.push(problem("recompute", "layout.recompute", say("recompute", layout.recompute)));
    }
    var rl = layout.recompute_layers == null ? 0 : layout.recompute_layers;
    if (rl < 0) {
      out.push(problem("negative", "layout.recompute_layers", say("negative-recompute-layers", rl)));
    } else if (rl > 0 && layout.recompute !== "full") {
      out.push(problem("recompute-layers-without-full", "layout.recompute_layers",
                       say("recompute-layers-without-full", rl, layout.recompute)));
    }
    atMostMax(out, "layout.recompute_layers", rl);
    fraction(out, "layout.tp_overlap", layout.tp_overlap, true, true);
    if (layout.precision !== "bf16" && layout.precision !== "fp8") {
      out.push(problem("precision", "layout.precision", say("precision", layout.precision)));
    }
    if (!(layout.adapter_rank >= 0)) {
      out.push(problem("adapter-rank", "layout.adapter_rank", say("adapter-rank", layout.adapter_rank)));
    }
    atMostMax(out, "layout.adapter_rank", layout.adapter_rank);
    atMostMax(out, "layout.shard_group", layout.shard_group);
    if ([16, 8, 4].indexOf(layout.base_bits) < 0) {
      out.push(problem("base-bits", "layout.base_bits", say("base-bits", layout.base_bits)));
    } else if (layout.base_bits !== 16 && !(layout.adapter_rank > 0)) {
      out.push(problem("base-bits-without-adapters", "layout.base_bits", say("base-bits-without-adapters", layout.base_bits)));
    }
    if (layout.zero_gather !== "layer" && layout.zero_gather !== "tensor-sync") {
      out.push(problem("zero-gather", "layout.zero_gather", say("zero-gather", layout.zero_gather)));
    } else if (layout.zero_gather === "tensor-sync" && layout.zero_stage !== 3) {
      out.push(problem("zero-gather-without-zero-3", "layout.zero_gather", say("zero-gather-without-zero-3", layout.zero_stage)));
    }
    if (layout.fp8_param_gather && layout.precision !== "fp8") {
      out.push(problem("fp8-param-gather-without-fp8", "layout.fp8_param_gather",
                       say("fp8-param-gather-without-fp8", layout.precision)));
    } else if (layout.fp8_param_gather && layout.adapter_rank > 0) {
      out.push(problem("fp8-param-gather-with-adapters", "layout.fp8_param_gather", say("fp8-param-gather-with-adapters")));
    }
    if (layout.attention_kernel !== "flash-attention-2" && layout.attention_kernel !== "cudnn") {
      out.push(problem("attention-kernel", "layout.attention_kernel", say("attention-kernel", layout.attention_kernel)));
    }
    expertDomain(out, w, layout);
    ["gemm_efficiency_max", "intra_node_collective_efficiency", "network_collective_efficiency"].forEach(function (k) {
      fraction(out, "assumptions." + k, a[k], false, true);
    });
    fraction(out, "assumptions.dp_overlap_fraction", a.dp_overlap_fraction, true, true);
    fraction(out, "assumptions.memory_reserve_fraction", a.memory_reserve_fraction, true, false);
    ["gemm_half_intensity", "memory_bound_bytes", "intra_node_step_latency_s", "network_step_latency_s",
     "tensor_sync_rank_overhead_s",
     "weight_bytes_per_parameter", "gradient_bytes_per_parameter", "optimizer_bytes_per_parameter"].forEach(function (k) {
      if (!(a[k] >= 0.0)) { out.push(problem("negative", "assumptions." + k, say("negative-assumption", k, a[k]))); }
      else if (a[k] !== 0.0) { positive(out, "assumptions." + k, a[k]); }
    });
    ["gemm_efficiency_max", "intra_node_collective_efficiency", "network_collective_efficiency"].forEach(function (k) {
      if (a[k] > 0.0 && a[k] < MIN_NORMAL) {
        out.push(problem("not-normal", "assumptions." + k, say("not-normal-share", k, a[k])));
      }
    });
    return out;
  }
  // feasibility.py _expert_domain: experts, latent attention and head widths in their domains, and
  // the layout knobs the model does not combine with them
  function expertDomain(out, w, layout) {
    atLeastOne(out, "layout.expert_parallel", layout.expert_parallel);
    var te = etpOf(layout);
    if (te !== 1 && te !== layout.tensor_parallel) {
      out.push(problem("expert-tensor-parallel", "layout.expert_tensor_parallel",
                       say("expert-tensor-parallel", te, layout.tensor_parallel)));
    } else if (te > 1 && (w.moe == null || layout.expert_parallel === 1)) {
      out.push(problem("expert-tensor-parallel-unspread", "layout.expert_tensor_parallel",
                       say("expert-tensor-parallel-unspread", te)));
    }
    fraction(out, "layout.ep_overlap", layout.ep_overlap, true, true);
    if (!(layout.expert_imbalance >= 1.0 && layout.expert_imbalance < Infinity)) {
      out.push(problem("expert-imbalance", "layout.expert_imbalance", say("expert-imbalance", layout.expert_imbalance)));
    }
    if (w.head_dim != null) { atLeastOne(out, "workload.head_dim", w.head_dim); }
    if (w.mla) {
      ["kv_lora_rank", "qk_nope_head_dim", "qk_rope_head_dim", "v_head_dim"].forEach(function (k) {
        atLeastOne(out, "workload.mla." + k, w.mla[k]);
      });
      if (w.mla.q_lora_rank < 0) {
        out.push(problem("negative", "workload.mla.q_lora_rank", say("negative-q-lora-rank", w.mla.q_lora_rank)));
      }
      atMostMax(out, "workload.mla.q_lora_rank", w.mla.q_lora_rank);
    }
    var m = w.moe;
    if (m) {
      ["experts", "experts_per_token", "expert_ffn_hidden_size"].forEach(function (k) {
        atLeastOne(out, "workload.moe." + k, m[k]);
      });
      ["shared_experts", "dense_layers", "nodes_per_token"].forEach(function (k) {
        if (m[k] < 0) { out.push(problem("negative", "workload.moe." + k, say("negative-moe", k, m[k]))); }
        atMostMax(out, "workload.moe." + k, m[k]);
      });
      if (m.experts_per_token > m.experts) {
        out.push(problem("experts-per-token", "workload.moe.experts_per_token",
                         say("experts-per-token", m.experts_per_token, m.experts)));
      }
      if (m.dense_layers >= w.layers) {
        out.push(problem("dense-layers", "workload.moe.dense_layers",
                         say("dense-layers", m.dense_layers, w.layers)));
      }
    } else if (layout.expert_parallel > 1) {
      out.push(problem("expert-parallel-without-experts", "layout.expert_parallel",
                       say("expert-parallel-without-experts", layout.expert_parallel, w.name)));
    }
    if (!extended(w)) { return; }
    [["workload.linear_biases", Boolean(w.linear_biases), "linear-biases"],
     ["layout.context_parallel", layout.context_parallel > 1 && (w.head_dim != null || Boolean(w.mla)),
      "context-parallel"],
     ["layout.adapter_rank", layout.adapter_rank > 0, "adapters"],
     ["layout.zero_gather", layout.zero_gather === "tensor-sync", "tensor-sync"],
     ["layout.shard_group", m != null && layout.shard_group > 0, "expert-shards"],
     ["layout.zero_stage", m != null && layout.expert_parallel > 1 && layout.zero_stage === 3, "spread-zero-3"]
    ].forEach(function (x) {
      // context parallelism is estimated with experts (a ring of ordinary heads), not with the other two
      var code = x[2] === "context-parallel" ? "not-modelled-context" : "not-modelled";
      if (x[1]) { out.push(problem("not-modelled", x[0], say(code, say("unmodelled")[x[2]]))); }
    });
  }
  function shapeProblems(out, w, t) {
    var heads = w.attention_heads, kv = w.kv_heads, ffn = w.ffn_hidden_size;
    if (heads % t) {
      out.push(problem("tensor-parallel-heads", "layout.tensor_parallel",
                       say("tensor-parallel-heads", t, heads)));
    }
    if (w.hidden_size % heads && w.head_dim == null && w.mla == null) {
      out.push(problem("heads-hidden", "workload.attention_heads", say("heads-hidden", heads, w.hidden_size)));
    }
    if (kv != null && heads % kv) {
      out.push(problem("kv-heads-heads", "workload.kv_heads", say("kv-heads-heads", kv, heads)));
    }
    if (kv != null && kv % t) {
      out.push(problem("tensor-parallel-kv-heads", "layout.tensor_parallel",
                       say("tensor-parallel-kv-heads", t, kv)));
    }
    if (ffn != null && ffn % t) {
      out.push(problem("tensor-parallel-ffn", "layout.tensor_parallel", say("tensor-parallel-ffn", t, ffn)));
    }
  }
  function placement(w, cluster, layout) {
    var out = [], g = cluster.node.gpus_per_node, t = layout.tensor_parallel, p = layout.pipeline_parallel;
    var gpus = cluster.node_count * g;
    if (t > g) {
      out.push(problem("tensor-parallel-exceeds-node", "layout.tensor_parallel",
                       say("tensor-parallel-exceeds-node", t, g)));
    } else if (g % t) {
      out.push(problem("tensor-parallel-splits-node", "layout.tensor_parallel",
                       say("tensor-parallel-splits-node", t, g)));
    }
    shapeProblems(out, w, t);
    var v = layout.virtual_pipeline;
    // feasibility.py: the embedding and the logits may each take a stage of their own (Llama 3)
    if (p * v > w.layers + 2) {
      out.push(problem("pipeline-exceeds-layers", "layout.pipeline_parallel",
                       say("pipeline-exceeds-layers", p, v, w.layers)));
    }
    if (v > 1 && p === 1) {
      out.push(problem("interleave-without-pipeline", "layout.virtual_pipeline",
                       say("interleave-without-pipeline", v)));
    }
    if (layout.precision === "fp8" && !((cluster.node.gpu.dense_fp8_flop_per_s || 0.0) > 0.0)) {
      out.push(problem("fp8-unavailable", "layout.precision", say("fp8-unavailable", cluster.node.gpu.name)));
    }
    var c = layout.context_parallel;
    if (layout.sequence_length % c) {
      out.push(problem("context-parallel-sequence", "layout.context_parallel",
                       say("context-parallel-sequence", c, layout.sequence_length)));
    }
    if (gpus % (t * p * c)) {
      out.push(problem("gpus-indivisible", "layout",
                       say("gpus-indivisible", gpus, c > 1, t * p * c)));
      return out;
    }
    var dp = Math.floor(gpus / (t * p * c)), stage = t * c * dp;
    if (stage % g && g % stage) {
      out.push(problem("data-parallel-placement", "layout",
                       say("data-parallel-placement", c > 1, stage, g)));
    }
    var perStep = dp * layout.micro_batch_size;
    if (layout.global_batch_size % perStep) {
      out.push(problem("batch-indivisible", "layout.global_batch_size",
                       say("batch-indivisible", layout.global_batch_size, dp, layout.micro_batch_size, perStep)));
    } else if (v > 1 && Math.floor(layout.global_batch_size / perStep) % p) {
      out.push(problem("interleave-microbatches", "layout.virtual_pipeline",
                       say("interleave-microbatches", Math.floor(layout.global_batch_size / perStep), p)));
    }
    shardGroupProblems(out, g, layout, dp);
    // feasibility.py _experts: e divides the experts and a stage's GPUs, and sits in a node or spans whole nodes
    var e = layout.expert_parallel;
    if (w.moe && e !== 1) {
      if (w.moe.experts % e) {
        out.push(problem("expert-parallel-experts", "layout.expert_parallel",
                         say("expert-parallel-experts", e, w.moe.experts)));
      }
      var stageGpus = Math.floor(gpus / p), block = expertBlock(layout);
      if (stageGpus % block) {
        out.push(problem("expert-parallel-stage", "layout.expert_parallel",
                         say("expert-parallel-stage", e, stageGpus, block)));
      } else if (block % g && g % block) {
        out.push(problem("expert-parallel-placement", "layout.expert_parallel",
                         say("expert-parallel-placement", e, g, block)));
      }
    }
    return out;
  }
  // feasibility.py _shard_group
  function shardGroupProblems(out, g, layout, dp) {
    var t = layout.tensor_parallel, c = layout.context_parallel;
    var size = layout.shard_group, ranks = dp * c, peers = Math.min(ranks, g / t);
    if (size === 0) { return; }
    if (size < 0 || ranks % size) {
      out.push(problem("shard-group", "layout.shard_group",
                       say("shard-group", size, ranks)));
    } else if (size % peers && peers % size) {
      out.push(problem("shard-group-placement", "layout.shard_group",
                       say("shard-group-placement", size, peers)));
    } else if (layout.zero_stage === 0) {
      out.push(problem("shard-group-without-zero", "layout.shard_group",
                       say("shard-group-without-zero")));
    }
  }
  function check(w, cluster, layout, a) {
    layout = withDefaults(layout);
    var problems = domain(w, cluster, layout, a);
    return problems.length ? problems : placement(w, cluster, layout);
  }

  // ---- wiring.py ---------------------------------------------------------------------------
  function dataParallelSize(cluster, layout) {
    return Math.floor(cluster.node_count * cluster.node.gpus_per_node /
                      (layout.tensor_parallel * layout.pipeline_parallel * layout.context_parallel));
  }
  function memoryPerGpu(w, cluster, layout, a, dp, m) {
    var t = layout.tensor_parallel, p = layout.pipeline_parallel, z = layout.zero_stage;
    var psi = paramsPerGpu(w, layout), adapters = adaptersPerGpu(w, layout);
    var c = layout.context_parallel, dpGrad = c > 1 ? dp * c : dp;
    var shard = layout.shard_group ? layout.shard_group : dpGrad;
    var count = adapters === null ? psi : adapters;  // LoRA: only the adapters have gradients and Adam states
    var experts = expertSplit(w, layout), dE = expertDataParallel(layout, dpGrad);
    var parts = [[z >= 3, a.weight_bytes_per_parameter], [z >= 2, gradientBytes(layout, a)],
                 [z >= 1, a.optimizer_bytes_per_parameter]].map(function (x, i) {
      // experts.moe_partitioned_bytes: the experts over their own data-parallel group
      if (experts && x[0]) { return experts[0] * x[1] / shard + experts[1] * x[1] / dE; }
      if (i === 0 && adapters !== null) {
        var whole = loraWeights(psi, adapters, layout, a);
        return x[0] ? whole / shard : whole;
      }
      return x[0] ? partitionedBytes(count, x[1], shard) : replicatedBytes(count, x[1]);
    });
    var perLayer = byRecompute(w, layout, function (mode) { return activationPerLayer(w, layout, mode); });
    var Lp = layersOf(w, layout);
    var held = layout.virtual_pipeline > 1 ? activationLayersHeldInterleaved(Lp, p, m, layout.virtual_pipeline)
      : activationLayersHeld(Lp, p, m);
    var activations = perLayer * held;
    var total = parts[0] + parts[1] + parts[2] + activations;
    var usable = cluster.node.gpu.memory_capacity_bytes * (1.0 - a.memory_reserve_fraction);
    return {weights: parts[0], gradients: parts[1], optimizer: parts[2], activations: activations, total: total,
            usable: usable, headroom: usable - total, fits: total <= usable};
  }
  // wiring.py activation_per_layer: the bytes one layer stores under recomputation `mode`
  function activationPerLayer(w, layout, mode) {
    var t = layout.tensor_parallel, c = layout.context_parallel;
    var table = layout.flash_attention ? ACTIVATIONS_FLASH : ACTIVATIONS_PER_LAYER;
    var perLayer = table[mode + "," + Boolean(layout.sequence_parallel)](
      layout.sequence_length, layout.micro_batch_size, w.hidden_size, w.attention_heads, t, widthRatioOf(w));
    // a workload without dropout stores no dropout masks (memory.py)
    if (w.dropout === false && mode !== "full") {
      var split = layout.sequence_parallel ? t : 1.0, s = layout.sequence_length, b = layout.micro_batch_size;
      perLayer = mode === "none" && !layout.flash_attention
        ? perLayer - 2.0 * s * b * w.hidden_size / split - 3.0 * w.attention_heads * s * s * b / t
        : perLayer - 2.0 * s * b * w.hidden_size / split;
    }
    // memory.py fp8_linear_inputs: under FP8 the four linear-layer inputs are saved in one byte a value
    if (layout.precision === "fp8" && mode !== "full") {
      var tsp = layout.sequence_parallel ? t : 1.0, sl = layout.sequence_length, bl = layout.micro_batch_size;
      perLayer = perLayer - 2.0 * sl * bl * w.hidden_size / tsp - sl * bl * (w.hidden_size + ffnHiddenSize(w)) / t;
    }
    if (c > 1) { perLayer = perLayer / c; }
    return perLayer;
  }
  // compute.py recompute_share and recompute_blend: with only some layers recomputed
  // (recompute_layers), full recomputation's figure and none's, weighed by the share φ recomputed
  function byRecompute(w, layout, of) {
    if (!(layout.recompute_layers > 0)) { return of(layout.recompute); }
    var phi = Math.min(1.0, layout.recompute_layers * layout.pipeline_parallel * layout.virtual_pipeline /
                       layersOf(w, layout));
    return phi * of("full") + (1.0 - phi) * of("none");
  }
  function peakFlopPerS(cluster, layout) {
    var gpu = cluster.node.gpu;
    return layout.precision === "fp8" ? (gpu.dense_fp8_flop_per_s || 0.0) : gpu.dense_bf16_flop_per_s;
  }
  function compute(w, cluster, layout, a) {
    var s = layout.sequence_length, b = layout.micro_batch_size, L = w.layers, h = w.hidden_size;
    var V = w.vocabulary_size, t = layout.tensor_parallel, p = layout.pipeline_parallel;
    var peak = peakFlopPerS(cluster, layout), r = widthRatioOf(w);
    // wiring.py widened: an attention core wider than h adds κ·B·s²·L·(h_att − h)
    var hWide = scoreWidth(w), hAtt = hWide == null ? h : hWide;
    var wide = function (flop, coefficient, B, layers) {
      return hWide == null ? flop : flop + coefficient * B * s * s * layers * (hAtt - h);
    };
    var perStep = wide(modelFlop(layout.global_batch_size, s, L, h, V, r), 12.0, layout.global_batch_size, L);
    L = layersOf(w, layout);
    var c = layout.context_parallel, sLocal = c > 1 ? s / c : s;
    var split = c > 1 ? function (f) { return f / (t * p * c); } : function (f) { return perGpu(f, t, p); };
    var modelMb = split(wide(modelFlop(b, s, L, h, V, r), 12.0, b, L));
    var executed = wide(byRecompute(w, layout, function (mode) { return EXECUTED_FLOP[mode](b, s, L, h, V, r); }),
                        byRecompute(w, layout, function (mode) { return WIDE_COEFFICIENT[mode]; }), b, L);
    if (layout.flash_attention) { executed = executed + flashBackwardFlop(b, s, L, hAtt); }
    // compute.py frozen_weight_gradient_flop: LoRA computes no weight gradients for the frozen base
    if (layout.adapter_rank > 0) { executed = executed - 24.0 * b * s * L * h * h * (r + V / (12.0 * L * h)); }
    var executedMb = split(executed);
    var hbm = cluster.node.gpu.memory_bandwidth_bytes_per_s;
    var operandBytes = layout.precision === "fp8" ? 1.0 : 2.0;
    var eta = gemmEfficiency(a.gemm_efficiency_max, gemmIntensity(b * sLocal, h, ffnHiddenSize(w) / t, operandBytes),
                             a.gemm_half_intensity, ridgeIntensity(peak, hbm));
    if (w.moe) {  // wiring.py expert_efficiency: η_moe, the harmonic mean of dense and expert GEMMs
      var mo = w.moe, spreadOut = spread(w, layout), te = etpOf(layout);
      var tokens = spreadOut ? b * sLocal * mo.experts_per_token * expertBlock(layout) / (t * mo.experts)
        : b * sLocal * mo.experts_per_token / mo.experts;
      var width = spreadOut && te > 1 ? mo.expert_ffn_hidden_size / te
        : spreadOut ? mo.expert_ffn_hidden_size : mo.expert_ffn_hidden_size / t;
      var etaE = gemmEfficiency(a.gemm_efficiency_max,
                                gemmIntensity(tokens, h, width, operandBytes),
                                a.gemm_half_intensity, ridgeIntensity(peak, hbm));
      var phi = (w.layers - mo.dense_layers) * mo.experts_per_token * mlpMatrices(w) * h * mo.expert_ffn_hidden_size /
        (w.layers * 12.0 * h * h * r);
      eta = eta * etaE / ((1.0 - phi) * etaE + phi * layout.expert_imbalance * eta);
    }
    // compute.py: with FP8 the attention core (κ·b·s²·h per layer) runs at the BF16 peak, and under
    // FlashAttention at the kernel's published efficiency on the GPU's architecture
    var fp8 = layout.precision === "fp8", bf16Peak = fp8 ? cluster.node.gpu.dense_bf16_flop_per_s : peak;
    var flash = layout.flash_attention ? cluster.node.gpu.flash_attention_efficiency : null;
    var speedup = layout.attention_kernel === "cudnn" ? cluster.node.gpu.cudnn_attention_speedup : null;
    var hasFlash = flash != null, etaAttn = hasFlash ? flash : eta, split = fp8 || hasFlash;
    // cudnn_attention_efficiency: FlashAttention-2's share times cuDNN's published speed-up
    if (hasFlash && speedup != null) { etaAttn = flash * speedup; }
    // compute.py score_bytes: without FlashAttention the softmax and dropout over the s×s scores,
    // 9 B a score forward and 11 backward (4 and 6 without dropout), the forward twice under recomputation
    var dropout = w.dropout !== false;
    var scoreForward = dropout ? 9.0 : 4.0, scoreBackward = dropout ? 11.0 : 6.0;
    var scoreMicrobatch = byRecompute(w, layout, function (mode) { return mode === "none" ? 1.0 : 2.0; }) * scoreForward +
      scoreBackward;
    // compute.py fp8_split_seconds_at_rate: FP8 leaves the output layer (k·b·s·h·V per micro-batch,
    // spread over the stages) in 16 bits as well, as Megatron-Core and DeepSeek-V3's recipe do
    // compute.py fp8_*_cast_bytes: FP8 casts every GEMM operand no fused norm casts, 2 B read and
    // the FP8 copy and its transpose written: the forward's projection and down-projection inputs,
    // the backward's four output gradients (two of them split only under sequence parallelism)
    var f = ffnHiddenSize(w), tSp = layout.sequence_parallel ? t : 1.0;
    var castForward = fp8 ? 4.0 * b * sLocal * (L / p) * (h + f) / t : 0.0;
    var castMicrobatch = fp8 ? byRecompute(w, layout, function (mode) { return mode === "full" ? 2.0 : 1.0; }) *
      castForward + 4.0 * b * sLocal * (L / p) * ((12.0 * h * r - h - f) / t + 2.0 * h / tSp) : 0.0;
    var seconds = function (flop, passes, coefficient, perScore, logitCoefficient, casts) {
      var bound = layout.sequence_parallel ? memoryBoundBytesSplit(a.memory_bound_bytes, b, sLocal, h, L, p, passes, t)
        : memoryBoundBytes(a.memory_bound_bytes, b, sLocal, h, L, p, passes);
      bound = bound + casts;
      if (!layout.flash_attention) {
        bound = bound + perScore * w.attention_heads * s * s * b * (L / p) / (t * c);
      }
      var core = coefficient * b * s * s * (L / p) * hAtt / (t * c);
      var gemm;
      if (fp8) {
        var logits = logitCoefficient * b * s * h * V / (t * p * c);
        gemm = (flop - core - logits) / (peak * eta) + logits / (bf16Peak * eta) + core / (bf16Peak * etaAttn);
      } else {
        gemm = split ? (flop - core) / (peak * eta) + core / (bf16Peak * etaAttn) : secondsAtRate(flop, peak, eta);
      }
      return gemm + bound / hbm;
    };
    var executedCoefficient = byRecompute(w, layout, function (mode) { return ATTENTION_COEFFICIENT[mode]; }) +
      (layout.flash_attention ? 2.0 : 0.0);
    var forward = seconds(modelMb / 3.0, 1.0, 4.0, scoreForward, 2.0, castForward);
    var microbatch = seconds(executedMb, byRecompute(w, layout, function (mode) { return PASSES[mode]; }),
                             executedCoefficient, scoreMicrobatch,
                             layout.adapter_rank > 0 ? 4.0 : 6.0, castMicrobatch);
    // compute.py attention_flop: what the context-parallel ring hides behind
    var attention = c > 1 ? secondsAtRate(12.0 * b * s * s * (L / p) * hAtt / (t * c), bf16Peak, etaAttn) : null;
    return {peak: peak, perStep: perStep, forward: forward, backward: microbatch - forward, microbatch: microbatch,
            attention: attention};
  }
  // traffic.py fp8_parameter_share (leaves.fp8_share): the linear layers' share of the gathered
  // weights, all but the embeddings and a position table, of Ψ or of Ψ − Ψ_E with spread experts
  function fp8Share(w, layout) {
    var held = spread(w, layout) ? w.parameter_count - routedParameters(w) : w.parameter_count;
    var e = w.tied_embeddings ? 1.0 : 2.0;
    return Math.max(0.0, 1.0 - (e * w.vocabulary_size * w.hidden_size + w.position_embeddings * w.hidden_size) / held);
  }
  function fp8GatherBytes(share, bytesPerParameter) { return share * 1.0 + (1.0 - share) * bytesPerParameter; }
  function dataParallelS(w, cluster, layout, a, dp, m, bIntra, bNet) {
    var t = layout.tensor_parallel, p = layout.pipeline_parallel;
    var dpGrad = layout.context_parallel > 1 ? dp * layout.context_parallel : dp;
    var peers = Math.min(dpGrad, cluster.node.gpus_per_node / t);
    var hybrid = layout.shard_group > 0, shard = hybrid ? layout.shard_group : dpGrad;
    var k = hybrid ? Math.min(shard, peers) : peers;
    var n = shard / k;
    var experts = expertSplit(w, layout);
    var psi = experts ? experts[0] : paramsPerGpu(w, layout), adapters = adaptersPerGpu(w, layout);
    // wiring.py data_parallel: under LoRA only the adapters' gradients are reduced; ZeRO-3 gathers
    // the whole weights, stages 1 and 2 only the updated adapters
    var grads = replicatedBytes(adapters === null ? psi : adapters, gradientBytes(layout, a));
    // traffic.py fp8_gather_bytes_per_parameter: FP8-held weights gathered at a byte
    var gathered = layout.fp8_param_gather ? fp8GatherBytes(fp8Share(w, layout), a.weight_bytes_per_parameter)
      : a.weight_bytes_per_parameter;
    var weights = adapters !== null && layout.zero_stage === 3 ? loraWeights(psi, adapters, layout, a)
      : replicatedBytes(adapters === null ? psi : adapters, gathered);
    var ng = GRADIENT_PHASES[layout.zero_stage](m), nw = WEIGHT_PHASES[layout.zero_stage](m);
    // traffic.py COLLECTIVES_PER_PHASE (or per_tensor: DeepSpeed's synchronous per-tensor ZeRO-3);
    // collectives.py: NCCL's ring latency over every rank
    var sync = layout.zero_gather === "tensor-sync";
    var tensors = 2.0 * (w.norm === "layernorm" ? 2.0 : 1.0) + (2.0 + mlpMatrices(w)) * (w.linear_biases ? 2.0 : 1.0);
    var c = sync ? layersOf(w, layout) / p * tensors : layout.zero_stage === 3 ? layersOf(w, layout) / p : 1.0;
    var latIntra = (shard - n) * a.intra_node_step_latency_s, latNet = (n - 1.0) * a.network_step_latency_s;
    // traffic.py per_tensor_latency_s: PyTorch copies the per-rank tensor list item by item
    if (sync) { latIntra += shard * a.tensor_sync_rank_overhead_s; }
    var weightIntra = collectivesPhaseS(c, latIntra, k, weights, bIntra);
    var weightNet = collectivesPhaseS(c, latNet, n, weights / k, bNet);
    var intra = phasesS(ng, collectivesPhaseS(c, latIntra, k, grads, bIntra), nw, weightIntra);
    var net = phasesS(ng, collectivesPhaseS(c, latNet, n, grads / k, bNet), nw, weightNet);
    var synchronous = sync ? nw * (weightIntra + weightNet) : null;
    if (experts) {  // wiring.py expert_data_parallel: the experts over their own group, e ranks apart
      var dE = expertDataParallel(layout, dpGrad), g = cluster.node.gpus_per_node;
      var kE = Math.min(dE, Math.max(1.0, g / expertBlock(layout))), nE = dE / kE;
      var gradsE = replicatedBytes(experts[1], gradientBytes(layout, a));
      var weightsE = replicatedBytes(experts[1], layout.fp8_param_gather ? 1.0 : a.weight_bytes_per_parameter);
      var cE = layout.zero_stage === 3 ? layersOf(w, layout) / p : 1.0;
      var latIE = (dE - nE) * a.intra_node_step_latency_s, latNE = (nE - 1.0) * a.network_step_latency_s;
      return [intra + phasesS(ng, collectivesPhaseS(cE, latIE, kE, gradsE, bIntra), nw,
                              collectivesPhaseS(cE, latIE, kE, weightsE, bIntra)),
              net + phasesS(ng, collectivesPhaseS(cE, latNE, nE, gradsE / kE, bNet), nw,
                            collectivesPhaseS(cE, latNE, nE, weightsE / kE, bNet)), synchronous];
    }
    if (!hybrid) { return [intra, net, synchronous]; }
    // wiring.py replica_all_reduce: each gradient shard across the replicas, once a step
    var r = dpGrad / shard, kr = peers / k, nr = r / kr, size = grads / shard;
    var rIntra = (r - nr) * a.intra_node_step_latency_s, rNet = (nr - 1.0) * a.network_step_latency_s;
    return [intra + 2.0 * collectivesPhaseS(1.0, rIntra, kr, size, bIntra),
            net + 2.0 * collectivesPhaseS(1.0, rNet, nr, size / kr, bNet), synchronous];
  }
  function stepTime(w, cluster, layout, a, work, dp, m) {
    var node = cluster.node, t = layout.tensor_parallel, p = layout.pipeline_parallel, g = node.gpus_per_node;
    var bIntra = node.scale_up_per_direction_bytes_per_s * a.intra_node_collective_efficiency;
    var bNet = networkBandwidthPerGpu(node.nics_per_node, node.nic_port_per_direction_bytes_per_s, g,
                                      a.network_collective_efficiency, cluster.fabric_bandwidth_fraction);
    var c = layout.context_parallel, sLocal = c > 1 ? layout.sequence_length / c : layout.sequence_length;
    var message = layout.micro_batch_size * sLocal * w.hidden_size * ACTIVATION_BYTES;
    var tpAr = ringAllReduceS(t, message, bIntra, a.intra_node_step_latency_s);
    var tp;
    if (spread(w, layout)) {  // wiring.py expert_layers_tp
      var coll = byRecompute(w, layout, tpCollectivesPerLayer), Lp = layersOf(w, layout), D = w.moe.dense_layers;
      tp = coll * (Lp / p) * tpAr * (1.0 + D / w.layers) / 2.0;
      if (layout.tp_overlap > 0.0) { tp = exposedTpS(tp, layout.tp_overlap, work.microbatch); }
      if (etpOf(layout) > 1) {
        var expertAr = ringAllReduceS(t, layout.expert_imbalance * w.moe.experts_per_token * message, bIntra,
                                      a.intra_node_step_latency_s);
        tp = tp + coll * (Lp / p) * expertAr * (w.layers - D) / w.layers / 2.0;
      }
    } else {
      tp = tpMicrobatchS(byRecompute(w, layout, tpCollectivesPerLayer), layersOf(w, layout), p, tpAr);
      if (layout.tp_overlap > 0.0) { tp = exposedTpS(tp, layout.tp_overlap, work.microbatch); }
    }
    var onNetwork = layout.pipeline_parallel > 1 && cluster.node_count > 1;
    // traffic.py: Megatron-LM's scatter/gather sends 1/t a GPU; DeepSpeed's engine the whole output
    var send = sendRecvS(layout.pp_scatter_gather ? message / t : message, onNetwork ? bNet : bIntra,
                         onNetwork ? a.network_step_latency_s : a.intra_node_step_latency_s);
    var v = layout.virtual_pipeline;
    var pp = v > 1 ? ppMicrobatchInterleavedS(p, v, send) : ppMicrobatchS(p, send);
    var dpParts = dataParallelS(w, cluster, layout, a, dp, m, bIntra, bNet);
    var ring = null;
    if (c > 1) {  // wiring.py context_ring
      var ringOnNet = t * c > g;
      var kv = 2.0 * layout.micro_batch_size * sLocal * kvWidth(w.hidden_size, w.attention_heads, kvHeads(w)) *
        ACTIVATION_BYTES / t;
      var cpSend = sendRecvS(kv, ringOnNet ? bNet : bIntra,
                             ringOnNet ? a.network_step_latency_s : a.intra_node_step_latency_s);
      var ringS = 3.0 * (layersOf(w, layout) / p) * (c - 1.0) * cpSend;
      ring = [ringS - Math.min(ringS, work.attention), ringOnNet];
    }
    var a2a = spread(w, layout) ? allToAll(w, cluster, layout, a, work, bIntra, bNet, sLocal) : null;
    return combine(layout, a, work, m, tp, pp, onNetwork, dpParts[0], dpParts[1], cluster.node_count * g, ring,
                   dpParts[2], a2a);
  }
  // wiring.py all_to_all: [exposed seconds per micro-batch, on the network]
  function allToAll(w, cluster, layout, a, work, bIntra, bNet, sLocal) {
    var mo = w.moe, e = layout.expert_parallel, g = cluster.node.gpus_per_node, k = mo.experts_per_token;
    var lam = layout.expert_imbalance, b = layout.micro_batch_size, t = layout.tensor_parallel, h = w.hidden_size;
    var te = etpOf(layout), inNode = te > 1 ? Math.min(e, g / te) : Math.min(e, g);
    var bytes = function (copies) { return lam * (b * sLocal / t) * copies * h * 2.0; };
    var intra = bytes(k * (inNode - 1.0) / e);
    var onNet = expertBlock(layout) > g, one;
    if (onNet) {
      var copies = k * (e - inNode) / e;
      if (mo.nodes_per_token) {
        var nodes = e / inNode;
        copies = Math.min(k * (e - inNode) / e, mo.nodes_per_token * (nodes - 1.0) / nodes);
      }
      one = Math.max(bytes(copies) / bNet, intra / bIntra) + a.network_step_latency_s;
    } else {
      one = intra / bIntra + a.intra_node_step_latency_s;
    }
    var count = byRecompute(w, layout, function (mode) { return mode === "full" ? 6.0 : 4.0; });
    var total = count * (layersOf(w, layout) / layout.pipeline_parallel) * (w.layers - mo.dense_layers) / w.layers * one;
    if (!(layout.ep_overlap > 0.0)) { return [total, onNet]; }
    return [total - Math.min(layout.ep_overlap * total, work.microbatch), onNet];
  }
  function combine(layout, a, work, m, tp, pp, onNetwork, dpIntra, dpNet, gpus, ring, synchronous, a2a) {
    var p = layout.pipeline_parallel, v = layout.virtual_pipeline;
    var slots = v > 1 ? function (per) { return slotsInterleavedS(m, p, v, per); }
      : function (per) { return slotsS(m, p, per); };
    var dp = dpIntra + dpNet;
    var window = OVERLAP_WINDOW[layout.zero_stage](m, work.backward, work.forward);
    // step.py exposed_dp_synchronous_s: synchronous gathers hide behind nothing
    var hideable = synchronous != null ? dp - synchronous : dp;
    var exposed = (synchronous != null ? synchronous : 0.0) + hideable - Math.min(a.dp_overlap_fraction * hideable, window);
    var slot = ring ? work.microbatch + tp + pp + ring[0] : work.microbatch + tp + pp;
    if (a2a) { slot = slot + a2a[0]; }
    var step = slots(slot) + exposed;
    var tpPp = ring ? (tp + pp) + ring[0] : tp + pp;
    if (a2a) { tpPp = tpPp + a2a[0]; }
    var exposedComm = slots(tpPp) + exposed;
    var ppIntra = onNetwork ? 0.0 : pp, ppNet = onNetwork ? pp : 0.0;
    var intraMb = tp + ppIntra;
    if (ring) {
      intraMb = intraMb + (ring[1] ? 0.0 : ring[0]);
      ppNet = ppNet + (ring[1] ? ring[0] : 0.0);
    }
    if (a2a) {
      if (a2a[1]) { ppNet = ppNet + a2a[0]; } else { intraMb = intraMb + a2a[0]; }
    }
    var a2aStep = a2a ? slots(a2a[0]) : null;
    return {
      allToAll: a2a ? {exposed_s: a2aStep, share: a2aStep / step, on_network: a2a[1]} : null,
      microbatches: m, step: step, exposedComm: exposedComm, dpExposed: exposed, tpStep: slots(tp),
      compute: slots(work.microbatch), bubble: v > 1 ? (p - 1.0) / v * slot : (p - 1.0) * slot,
      intra: slots(intraMb) + exposedPartS(exposed, dpIntra, dp),
      net: slots(ppNet) + exposedPartS(exposed, dpNet, dp),
      commShare: exposedComm / step,
      tokens: layout.global_batch_size * layout.sequence_length / step,
      achievedMfu: work.perStep / (step * gpus * work.peak)
    };
  }
  function withField(record, field, value) {
    var copy = {};
    Object.keys(record).forEach(function (k) { copy[k] = record[k]; });
    copy[field] = value;
    return copy;
  }
  // inputs.py Layout's defaults, for a layout that leaves the newer fields out
  var LAYOUT_DEFAULTS = {precision: "bf16", flash_attention: true, virtual_pipeline: 1, fp32_gradients: false,
                         tp_overlap: 0.0, context_parallel: 1, shard_group: 0, attention_kernel: "flash-attention-2",
                         zero_gather: "layer", adapter_rank: 0, base_bits: 16,
                         expert_parallel: 1, expert_tensor_parallel: 1, ep_overlap: 0.0, expert_imbalance: 1.0,
                         pp_scatter_gather: true, recompute_layers: 0, fp8_param_gather: false};
  function withDefaults(layout) {
    var out = layout;
    Object.keys(LAYOUT_DEFAULTS).forEach(function (k) {
      if (out[k] == null) { out = withField(out, k, LAYOUT_DEFAULTS[k]); }
    });
    return out;
  }
  function oneNodeScaling(w, cluster, layout, a, step) {
    if (cluster.node_count === 1) { return [1.0, say("one-node")]; }
    var g = cluster.node.gpus_per_node;
    var replica = layout.tensor_parallel * layout.pipeline_parallel * layout.context_parallel;
    var product = layout.context_parallel > 1 ? "t × p × c" : "t × p";
    if (replica > g) { return [null, say("no-reference-exceeds", product, replica, g)]; }
    if (g % replica) { return [null, say("no-reference-splits", product, replica, g)]; }
    var dp = Math.floor(cluster.node_count * g / replica);
    var perReplica = Math.floor(layout.global_batch_size / dp);
    var refLayout = withField(layout, "global_batch_size", perReplica * Math.floor(g / replica));
    // wiring.py reference_layout: a shard group as large as the node's ranks shards over all of them
    var nodeRanks = Math.floor(g / (layout.tensor_parallel * layout.pipeline_parallel));
    refLayout = withField(refLayout, "shard_group", layout.shard_group < nodeRanks ? layout.shard_group : 0);
    var refCluster = withField(cluster, "node_count", 1);
    var work = compute(w, refCluster, refLayout, a);
    var ref = stepTime(w, refCluster, refLayout, a, work, dataParallelSize(refCluster, refLayout), step.microbatches);
    return [ref.step / step.step, say("reference", refLayout.global_batch_size)];
  }

  /** report.outputs(): the documented keys, or {problems: [...]}. */
  function estimate(w, cluster, layout, a) {
    layout = withDefaults(layout);
    var problems = check(w, cluster, layout, a);
    if (problems.length) { return {problems: problems}; }
    var dp = dataParallelSize(cluster, layout);
    var m = layout.global_batch_size / (dp * layout.micro_batch_size);
    var mem = memoryPerGpu(w, cluster, layout, a, dp, m);
    var work = compute(w, cluster, layout, a);
    var st = stepTime(w, cluster, layout, a, work, dp, m);
    var scaling = oneNodeScaling(w, cluster, layout, a, st);
    // result.py: an estimate whose outputs are not all finite is refused, never returned
    // the memory, compute and step outputs (result.py checks every field of the three), then the
    // one-node reference's scaling, a second estimate
    var outputs = [mem.weights, mem.gradients, mem.optimizer, mem.activations, mem.total, mem.usable, mem.headroom,
                   work.peak, work.perStep, work.forward, work.backward, work.microbatch, work.attention,
                   st.step, st.tokens, st.commShare, st.achievedMfu, st.compute, st.bubble, st.intra, st.net,
                   st.exposedComm, st.dpExposed, st.tpStep, st.allToAll && st.allToAll.exposed_s, st.allToAll && st.allToAll.share,
                   scaling[0]];
    for (var i = 0; i < outputs.length; i++) {
      if (typeof outputs[i] === "number" && !isFinite(outputs[i])) {
        return {problems: [problem("not-finite", "estimate", say("not-finite"))]};
      }
    }
    return {
      fits: mem.fits,
      memory_per_gpu_gb: {
        weights_gb: mem.weights / GB, gradients_gb: mem.gradients / GB, optimizer_gb: mem.optimizer / GB,
        model_states_gb: (mem.weights + mem.gradients + mem.optimizer) / GB,
        activations_gb: mem.activations / GB, total_gb: mem.total / GB,
        usable_gb: mem.usable / GB, headroom_gb: mem.headroom / GB
      },
      step_time_s: st.step,
      tokens_per_s: st.tokens,
      comm_share: st.commShare,
      bottleneck: bottleneck(mem.fits, st.compute, st.intra, st.net),
      scaling_efficiency: scaling[0],
      scaling_note: scaling[1],
      achieved_mfu: st.achievedMfu,
      time_s: {compute: st.compute, bubble: st.bubble, intra_node: st.intra, network: st.net,
               exposed_comm: st.exposedComm, dp_exposed: st.dpExposed, tensor_parallel: st.tpStep},
      microbatches: st.microbatches,
      all_to_all: st.allToAll
    };
  }

  // ---- estimates/choice.py resolve: the calculator's choice against data/costmodel.json ---------------
  function byId(list, id) { return list.filter(function (x) { return x.id === id; })[0]; }

  /**
   * A choice that names a node (`_node_choice`): the node's GPU, GPUs per node and scale-out
   * ports fill what the choice left out and must agree with what it gave. Returns the choice
   * with them filled in, or {problem}.
   */
  function nodeChoice(data, choice) {
    var node = byId(data.nodes || [], choice.node);
    if (!node) { return {problem: say("unknown-node", choice.node)}; }
    if (node.problem) { return {problem: node.problem}; }
    var given = say("node-fields");
    var filled = {};
    for (var key in choice) { filled[key] = choice[key]; }
    for (key in given) {
      var asked = choice[key];
      if (asked != null && asked !== "" && asked !== node[key]) {
        return {problem: say("node-disagrees", given[key], asked, node.id, node[key])};
      }
      filled[key] = node[key];
    }
    return {choice: filled, node: node};
  }

  /**
   * The model's inputs for a choice ({workload, gpu, network: ids; node: an id or empty; gpus,
   * gpus_per_node, nics_per_node, tp, pp, zero, micro_batch, seq, global_batch, virtual_pipeline, cp:
   * whole numbers; recompute; sequence_parallel, flash_attention, fp32_gradients; tp_overlap in [0, 1];
   * attention_kernel}), built from the exported data as `resolve` builds them from the knowledge base;
   * or {problem} with a one-line reason.
   */
  function fromChoice(data, choice) {
    var workload = byId(data.workloads, choice.workload);
    if (!workload) { return {problem: say("unknown-workload")}; }
    var node = null;
    if (choice.node) {
      var named = nodeChoice(data, choice);
      if (named.problem) { return named; }
      choice = named.choice;
      node = named.node;
    }
    var gpu = byId(data.gpus, choice.gpu);
    var network = byId(data.networks, choice.network);
    if (!gpu || !network) { return {problem: say("unknown-gpu-or-network")}; }
    var names = say("count-fields");
    for (var key in names) {
      if (!(choice[key] >= 1) || choice[key] % 1) { return {problem: say("count-not-whole", names[key])}; }
    }
    var perNode = choice.gpus_per_node;
    if (choice.gpus % perNode) { return {problem: say("gpus-fill-nodes", choice.gpus, perNode)}; }
    // A node carries the GPU's scale-up link at its own size (which may exceed the free sizes).
    var link = node ? node.scale_up : gpu.scale_up[String(perNode)];
    if (!link) { return {problem: say("no-scale-up", perNode)}; }
    var problem = link.problem || network.problem || data.assumptions.problem || gpu.problem;
    if (problem) { return {problem: problem}; }
    var port = network.port_bytes_per_s;
    var name = perNode + " × " + gpu.spec.name;
    if (node) {
      // A port runs at the slower of its NIC and the network it joins.
      port = Math.min(port, node.port_bytes_per_s);
      name = node.name;
    }
    var cluster = {name: name, gpu: gpu.spec, gpus_per_node: perNode,
                   scale_up_per_direction_bytes_per_s: link.bytes_per_s, nics_per_node: choice.nics_per_node,
                   nic_port_per_direction_bytes_per_s: port};
    return {
      workload: workload, gpu: gpu, network: network, link: link, node: node,
      inputs: [workload.spec, {node: cluster, node_count: choice.gpus / perNode, fabric_bandwidth_fraction: 1.0},
               {tensor_parallel: choice.tp, pipeline_parallel: choice.pp, zero_stage: choice.zero,
                micro_batch_size: choice.micro_batch, sequence_length: choice.seq,
                global_batch_size: choice.global_batch, recompute: choice.recompute,
                recompute_layers: choice.recompute_layers == null ? 0 : choice.recompute_layers,
                sequence_parallel: Boolean(choice.sequence_parallel), precision: "bf16",
                flash_attention: choice.flash_attention == null ? true : Boolean(choice.flash_attention),
                virtual_pipeline: choice.virtual_pipeline == null ? 1 : choice.virtual_pipeline,
                fp32_gradients: Boolean(choice.fp32_gradients),
                tp_overlap: choice.tp_overlap == null ? 0.0 : choice.tp_overlap,
                context_parallel: choice.cp == null ? 1 : choice.cp,
                shard_group: choice.shard_group == null ? 0 : choice.shard_group,
                attention_kernel: choice.attention_kernel || "flash-attention-2",
                zero_gather: choice.zero_gather || "layer",
                adapter_rank: choice.adapter_rank == null ? 0 : choice.adapter_rank,
                base_bits: choice.base_bits == null ? 16 : choice.base_bits,
                expert_parallel: choice.ep == null ? 1 : choice.ep,
                expert_tensor_parallel: choice.etp == null ? 1 : choice.etp,
                ep_overlap: choice.ep_overlap == null ? 0.0 : choice.ep_overlap,
                // choice.py _imbalance: as chosen, else the knowledge base's assumption for an MoE workload
                expert_imbalance: choice.expert_imbalance != null ? choice.expert_imbalance
                  : workload.spec.moe && data.expert_imbalance != null ? data.expert_imbalance : 1.0},
               data.assumptions.values]
    };
  }

  // ---- planner/search.py fastest_layout: the layout search the planner runs -------------------
  // search.py recomputations: in the order they cost time; selective only without FlashAttention,
  // the one place it saves memory (under it a layer stores the same as without recomputation)
  function searchRecompute(shape) {
    var flash = !shape.base || shape.base.flash_attention == null || Boolean(shape.base.flash_attention);
    return flash ? ["none", "full"] : ["none", "selective", "full"];
  }
  function gcd(x, y) { while (y) { var r = x % y; x = y; y = r; } return x; }
  /** The fastest layout that fits, else the one needing the least memory per GPU, over every
   * tensor-parallel size dividing a node and pipeline size dividing the layers and the GPUs;
   * per placement the savers are tried in the order they cost time and the first that fits is
   * kept. `shape`: {sequence_length, min_global_batch, micro_batch, base} (base: layout fields
   * every layout starts from, e.g. LoRA's). Returns {layout, estimate, why} (layout null when
   * nothing can be placed). */
  // search.py placements: [t, p, e, global batch, expert tensor parallel] of every tensor-parallel
  // size dividing a node, pipeline size dividing the layers and the GPUs, and expert-parallel size
  // dividing gcd(experts, a stage's GPUs) that sits in a node or spans whole nodes (1 for a dense
  // workload); expert tensor parallel 1, and t where the experts are spread and split over t > 1
  function placements(w, cluster, shape) {
    var perNode = cluster.node.gpus_per_node, gpus = cluster.node_count * perNode, out = [];
    for (var t = 1; t <= perNode; t++) {
      if (perNode % t) { continue; }
      for (var p = 1; p <= w.layers; p++) {
        if (w.layers % p || gpus % (t * p)) { continue; }
        var step = Math.floor(gpus / (t * p)) * shape.micro_batch;
        var batch = Math.ceil(shape.min_global_batch / step) * step;
        var common = gcd(w.moe ? w.moe.experts : 1, Math.floor(gpus / p));
        for (var e = 1; e <= common; e++) {
          if (common % e || (e % perNode && perNode % e)) { continue; }
          if (shape.expert_parallel && e !== shape.expert_parallel) { continue; }
          out.push([t, p, e, batch, 1]);
          // expert tensor parallel t: each expert split over the tensor-parallel group, where the
          // e·t GPUs that hold a layer's experts divide a stage's GPUs and sit in a node or span nodes
          var block = e * t;
          if (e > 1 && t > 1 && (Math.floor(gpus / p) % block) === 0 && (block % perNode === 0 || perNode % block === 0)) {
            out.push([t, p, e, batch, t]);
          }
        }
      }
    }
    return out;
  }
  // search.py _fewest_recomputed: where no recomputation fits at no ZeRO stage and full recomputation
  // fits at stage z, the fewest layers of each chunk recomputed in full that fit at z: memory is
  // linear in their share, so the boundary is interpolated, and only one within BOUNDARY_MARGIN of
  // a whole number is confirmed by estimating the counts around it
  var BOUNDARY_MARGIN = 1e-6;
  function fewestRecomputed(w, cluster, a, found, plainTotal) {
    var layout = found[1], out = found[2];
    var chunk = Math.ceil(w.layers / (layout.pipeline_parallel * (layout.virtual_pipeline || 1)));
    if (layout.recompute !== "full" || chunk < 2 || plainTotal == null || !(plainTotal > out.memory_per_gpu_gb.usable_gb)) {
      return found;
    }
    var boundary = (plainTotal - out.memory_per_gpu_gb.usable_gb) / (plainTotal - out.memory_per_gpu_gb.total_gb) * chunk;
    var n = Math.min(chunk - 1, Math.max(1, Math.ceil(boundary)));
    var seen = {};
    function at(k) {
      if (!seen[k]) {
        var lay = {};
        Object.keys(layout).forEach(function (key) { lay[key] = layout[key]; });
        lay.recompute_layers = k;
        seen[k] = [lay, estimate(w, cluster, lay, a)];
      }
      return seen[k];
    }
    function fits(k) { var e = at(k)[1]; return !e.problems && e.fits; }
    if (Math.abs(boundary - Math.round(boundary)) <= BOUNDARY_MARGIN) {
      if (fits(n)) {
        while (n > 1 && fits(n - 1)) { n -= 1; }
      } else {
        while (n < chunk - 1 && !fits(n)) { n += 1; }
      }
    }
    if (!fits(n)) { return found; }
    var partial = at(n);
    return [partial[1].step_time_s, partial[0], partial[1]];
  }
  function fastestLayout(w, cluster, a, shape) {
    var best = null, closest = null, why = "no layout of tensor × pipeline parallel can be placed on these GPUs";
    var savers = searchRecompute(shape);
    placements(w, cluster, shape).forEach(function (place) {
      var foundHere = false, plain = {};
      for (var r = 0; r < savers.length && !foundHere; r++) {
        for (var zero = 0; zero <= 3; zero++) {
          var layout = {};
          Object.keys(shape.base || {}).forEach(function (k) { layout[k] = shape.base[k]; });
          layout.tensor_parallel = place[0]; layout.pipeline_parallel = place[1]; layout.zero_stage = zero;
          layout.micro_batch_size = shape.micro_batch; layout.sequence_length = shape.sequence_length;
          layout.global_batch_size = place[3]; layout.recompute = savers[r];
          layout.sequence_parallel = place[0] > 1; layout.expert_parallel = place[2];
          layout.expert_tensor_parallel = place[4];
          if (layout.recompute_layers == null) { layout.recompute_layers = 0; }
          var out = estimate(w, cluster, layout, a);
          if (out.problems) { why = out.problems[0].message; break; }
          if (out.fits) {
            var fit = r > 0 && savers[0] === "none" ? fewestRecomputed(w, cluster, a, [out.step_time_s, layout, out],
                                                                       plain[zero]) : [out.step_time_s, layout, out];
            if (best === null || fit[0] < best[0]) { best = fit; }
            foundHere = true;
            break;
          }
          var total = out.memory_per_gpu_gb.total_gb;
          if (r === 0) { plain[zero] = total; }
          if (closest === null || total < closest[0]) { closest = [total, layout, out]; }
        }
      }
    });
    var kept = best || closest;
    if (kept === null) { return {layout: null, estimate: null, why: why}; }
    return {layout: kept[1], estimate: kept[2], why: best === null ? "no layout fits in memory" : ""};
  }

  // ---- planner/plan.py: the planner over the exported data --------------------------------------
  /** The builds at `gpus` GPUs, as plan.py `_builds` lists them: each node (whole; a rack larger
   * than the count blocked; a server larger than it replaced by a smaller server of its GPU, once
   * per GPU), then a generic server for each GPU no node is built on; a module GPU at a count that
   * is not whole boards of 8 is blocked. */
  function planBuilds(data, gpus) {
    var P = data.planner, board = P.constants.board, out = [], built = {}, small = {};
    function byBoard(gpu) {
      return gpus % board === 0 || !P.gpus[gpu] || !P.gpus[gpu].module ? null : "board";
    }
    (data.nodes || []).forEach(function (node) {
      built[node.gpu] = true;
      var size = node.gpus_per_node, kind = P.nodes[node.id] ? P.nodes[node.id].kind : "server";
      if (gpus >= size) {
        out.push({gpu: node.gpu, node: node.id, per_node: size, nic_rate: node.problem ? null : node.port_bytes_per_s,
                  blocked: null});
      } else if (kind === "rack") {
        out.push({gpu: node.gpu, node: node.id, per_node: gpus, nic_rate: null, blocked: "rack"});
      } else if (!small[node.gpu]) {
        small[node.gpu] = true;
        out.push({gpu: node.gpu, node: null, per_node: gpus, nic_rate: null, blocked: byBoard(node.gpu)});
      }
    });
    data.gpus.forEach(function (gpu) {
      if (!built[gpu.id]) {
        out.push({gpu: gpu.id, node: null, per_node: Math.min(board, gpus), nic_rate: null, blocked: byBoard(gpu.id)});
      }
    });
    return out;
  }
  function partOf(build) { return build.node || build.gpu; }
  function candidateId(build, network) {
    var base = build.node || build.gpu + "-server";
    return network ? base + "+" + network : base;
  }
  /** RDMA networks grouped by port rate, fastest first, ids sorted within a rate (plan.py `_networks_by_rate`). */
  function networksByRate(data) {
    var rates = {};
    data.networks.forEach(function (n) {
      if (n.problem || !data.planner.rdma[n.id]) { return; }
      (rates[n.port_bytes_per_s] = rates[n.port_bytes_per_s] || []).push(n.id);
    });
    return Object.keys(rates).map(Number).sort(function (a, b) { return b - a; })
      .map(function (r) { return [r, rates[r].slice().sort()]; });
  }
  function reachable(byRate, nicRate) {
    if (nicRate == null) { return byRate; }
    var below = byRate.filter(function (x) { return x[0] <= nicRate * (1 + 1e-9); });
    var above = byRate.filter(function (x) { return x[0] > nicRate * (1 + 1e-9); });
    var equal = below.some(function (x) { return Math.abs(x[0] - nicRate) <= nicRate * 1e-9; });
    return (above.length && !equal ? [above[above.length - 1]] : []).concat(below);
  }
  function planEvaluate(data, request, build, network, gpus, shape) {
    var whole = Boolean(build.node);  // a blocked build is never evaluated
    var chosen = fromChoice(data, {workload: request.workload, node: whole ? build.node : "", gpu: whole ? "" : build.gpu,
                                   network: network, gpus: gpus, gpus_per_node: whole ? null : build.per_node,
                                   nics_per_node: whole ? null : build.per_node, tp: 1, pp: 1, zero: 1,
                                   micro_batch: shape.micro_batch, seq: shape.sequence_length,
                                   global_batch: shape.min_global_batch, recompute: "none"});
    if (chosen.problem) { return {problem: chosen.problem}; }
    var found = fastestLayout(chosen.inputs[0], chosen.inputs[1], chosen.inputs[3], shape);
    if (!found.layout) { return {problem: found.why}; }
    return {layout: found.layout, estimate: found.estimate, inputs: chosen.inputs, link: chosen.link};
  }
  function planCandidates(data, request, gpus, shape, allowed) {
    var byRate = networksByRate(data), out = [];
    if (!byRate.length) { return out; }
    planBuilds(data, gpus).forEach(function (build) {
      if (!allowed[partOf(build)]) { return; }
      var family = data.planner.gpus[build.gpu] ? data.planner.gpus[build.gpu].family : build.gpu;
      if (build.blocked) {
        out.push({id: candidateId(build, null), build: build, family: family, blocked: build.blocked});
        return;
      }
      if (gpus <= build.per_node) {
        var one = planEvaluate(data, request, build, byRate[0][1][0], gpus, shape);
        out.push({id: candidateId(build, null), build: build, family: family, network: null, equivalent: [],
                  found: one, tried: []});
        return;
      }
      var kept = null, tried = [], fastest = null;
      var nets = reachable(byRate, build.nic_rate);
      for (var i = 0; i < nets.length; i++) {
        var ids = nets[i][1];
        var found = planEvaluate(data, request, build, ids[0], gpus, shape);
        var candidate = {id: candidateId(build, ids[0]), build: build, family: family, network: ids[0],
                         equivalent: ids.slice(1), found: found};
        if (found.problem) { kept = kept || candidate; break; }
        var step = found.estimate.step_time_s;
        tried.push([ids[0], step]);
        if (fastest === null) { fastest = step; }
        if (!found.estimate.fits) { kept = kept || candidate; break; }
        if (step > fastest * (1 + data.planner.constants.network_slack)) { break; }
        kept = candidate;
      }
      if (kept) { kept.tried = tried; out.push(kept); }
    });
    return out;
  }
  function planOption(c) {
    return {id: c.id, gpu: c.build.gpu, node: c.build.node, network: c.network, equivalent_networks: c.equivalent,
            family: c.family, gpus: c.found.inputs[1].node_count * c.found.inputs[1].node.gpus_per_node,
            gpus_per_node: c.found.inputs[1].node.gpus_per_node, scale_up: c.found.link ? c.found.link.id : null,
            layout: c.found.layout, estimate: c.found.estimate, networks_tried: c.tried};
  }
  /**
   * The planner's answer (plan.py `plan`) for {workload, gpus, market, goal, licensed, seq,
   * global_batch, micro_batch, lora_rank, base_bits}: {options (the best of each GPU family that
   * fits, fastest first), excluded ({id, kind: market|blocked|problem|fit|slower, status, ruling,
   * source}), fewest ({gpus, option} when nothing fits), market} or {problem}.
   */
  function plan(data, request) {
    var P = data.planner, C = P.constants;
    var market = (P.markets || []).filter(function (m) { return m.id === request.market; })[0];
    if (!market) { return {problem: say("unknown-market")}; }
    var goal = request.goal || "pretrain";
    if (!C.min_global_batch[goal]) { return {problem: say("unknown-goal")}; }
    var shape = {sequence_length: request.seq || C.sequence_length,
                 min_global_batch: request.global_batch || C.min_global_batch[goal],
                 micro_batch: request.micro_batch || 1, expert_parallel: request.ep || null,
                 base: goal === "lora" ? {adapter_rank: request.lora_rank || C.lora_rank, base_bits: request.base_bits || 16}
                   : null};
    var allowed = {}, excluded = [], seen = {};
    [1, C.board, C.max_gpus].forEach(function (count) {
      planBuilds(data, count).forEach(function (b) {
        var part = partOf(b);
        if (seen[part]) { return; }
        seen[part] = true;
        var s = market.standings[part];
        if (!s) { excluded.push({id: part, kind: "market", status: null, ruling: null, source: null}); }
        else if (s.status === "available" || (request.licensed && s.status === "licence-required")) { allowed[part] = s; }
        else {
          excluded.push({id: part, kind: "market", status: s.status, ruling: s.ruling, source: s.source, title: s.title});
        }
      });
    });
    var fitting = [];
    planCandidates(data, request, request.gpus, shape, allowed).forEach(function (c) {
      if (c.blocked) { excluded.push({id: c.id, kind: "blocked", why: c.blocked}); return; }
      if (c.found.problem) { excluded.push({id: c.id, kind: "problem", why: c.found.problem}); return; }
      if (c.found.estimate.fits) { fitting.push(planOption(c)); }
      else { excluded.push({id: c.id, kind: "fit", total_gb: c.found.estimate.memory_per_gpu_gb.total_gb,
                            usable_gb: c.found.estimate.memory_per_gpu_gb.usable_gb}); }
    });
    fitting.sort(function (a, b) {
      return a.estimate.step_time_s - b.estimate.step_time_s || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
    });
    var best = {}, options = [];
    fitting.forEach(function (o) {
      if (!best[o.family]) { best[o.family] = o; options.push(o); return; }
      excluded.push({id: o.id, kind: "slower", lead: best[o.family].id,
                     pct: (o.estimate.step_time_s / best[o.family].estimate.step_time_s - 1) * 100});
    });
    var fewest = options.length ? null : planFewest(data, request, shape, allowed);
    return {market: market.id, options: options, excluded: excluded, fewest: fewest};
  }
  function planFewest(data, request, shape, allowed) {
    var board = data.planner.constants.board, max = data.planner.constants.max_gpus;
    function fitsAt(gpus) {
      var ok = planCandidates(data, request, gpus, shape, allowed).filter(function (c) {
        return !c.blocked && !c.found.problem && c.found.estimate.fits;
      }).map(planOption);
      ok.sort(function (a, b) {
        return a.estimate.step_time_s - b.estimate.step_time_s || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      });
      return ok.length ? ok[0] : null;
    }
    for (var count = request.gpus + 1; count <= board; count++) {
      var small = fitsAt(count);
      if (small) { return {gpus: count, option: small}; }
    }
    var low = Math.max(request.gpus, board), high = Math.ceil(low * 2 / board) * board;
    var found = fitsAt(high);
    while (!found && high < max) { low = high; high = high * 2; found = fitsAt(high); }
    if (!found) { return null; }
    while (high - low > board) {
      var mid = Math.floor(Math.floor((low + high) / 2) / board) * board;
      if (mid <= low) { break; }
      var atMid = fitsAt(mid);
      if (atMid) { high = mid; found = atMid; } else { low = mid; }
    }
    return {gpus: high, option: found};
  }

  var api = {estimate: estimate, check: check, fromChoice: fromChoice, fastestLayout: fastestLayout, plan: plan,
             text: TEXT};
  if (typeof module !== "undefined" && module.exports) {
    module.exports = api;
  } else {
    root.CostModel = api;
  }
}(this));

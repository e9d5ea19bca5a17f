"""Interleaved 1F1B on p pipeline ranks with v chunks each, m micro-batches and a micro-batch group
of N (Megatron-Core's microbatch_group_size_per_vp_stage): how long a step takes and how many
chunk activations a rank holds at most. Research for issue 22 (README.md beside this file).

Every forward pass of a chunk takes `forward` time units, every backward pass `backward`; sending
between ranks is free. A rank runs its passes in a fixed order, each as soon as the rank is free
and the pass it depends on has finished:
- forward of (micro-batch i, chunk c) on rank r needs the same pass on rank r - 1, or on rank 0 the
  forward of chunk c - 1 on rank p - 1;
- backward of (i, c) on rank r needs the same pass on rank r + 1, or on rank p - 1 the backward of
  chunk c + 1 on rank 0, or for the last chunk the forward of (i, c) on rank p - 1.

Orders: `megatron` is Megatron-Core's (schedules.py, forward_backward_pipelining_with_interleaving):
forward passes in groups of N micro-batches chunk by chunk, backward passes likewise with the chunks
reversed; rank r first runs 2(p - r - 1) + (v - 1)·N forward passes (the warm-up), then alternates one
forward and one backward, then runs the remaining backward passes. `greedy` is not bound to that
alternation: whenever its rank is free it runs the pass that can start first, a backward before a
forward, each kind in the same order as Megatron-Core's, with at most `cap` forward passes whose
backward has not run. It stands for a schedule that lets N fall below p (the Llama 3 paper's, whose
rules are not published); it is one such schedule, not the best possible one.

Run: python3 research/pipeline-group/schedule.py  (prints the table in README.md).
"""

from __future__ import annotations

Pass = tuple[int, int]  # (micro-batch, chunk)


def order(m: int, v: int, group: int, backward: bool) -> list[Pass]:
    """Megatron-Core's order of one kind of pass: groups of `group` micro-batches, chunk by chunk."""
    out: list[Pass] = []
    for start in range(0, m, group):
        size = min(group, m - start)
        for step in range(v):
            chunk = v - 1 - step if backward else step
            out.extend((start + i, chunk) for i in range(size))
    return out


def depends(kind: str, rank: int, item: Pass, p: int, v: int) -> tuple[str, int, int, int] | None:
    mb, chunk = item
    if kind == "F":
        if rank > 0:
            return ("F", rank - 1, mb, chunk)
        return ("F", p - 1, mb, chunk - 1) if chunk > 0 else None
    if rank < p - 1:
        return ("B", rank + 1, mb, chunk)
    return ("B", 0, mb, chunk + 1) if chunk < v - 1 else ("F", p - 1, mb, chunk)


def megatron(p: int, v: int, m: int, group: int, forward: float = 1.0,
             backward: float = 2.0) -> tuple[float, int] | None:
    """(bubble share of the ideal m·v·(forward + backward), most chunk activations held), or None
    when the order deadlocks."""
    fwd, bwd = order(m, v, group, False), order(m, v, group, True)
    total = len(fwd)
    plans: list[list[tuple[str, Pass]]] = []
    for rank in range(p):
        warm = min(total, 2 * (p - rank - 1) + (v - 1) * group)
        plan = [("F", x) for x in fwd[:warm]]
        for k in range(warm, total):
            plan += [("F", fwd[k]), ("B", bwd[k - warm])]
        plan += [("B", x) for x in bwd[total - warm:]]
        plans.append(plan)
    done: dict[tuple[str, int, int, int], float] = {}
    at, free, held, most = [0] * p, [0.0] * p, [0] * p, 0
    moved = True
    while moved:
        moved = False
        for rank in range(p):
            while at[rank] < len(plans[rank]):
                kind, item = plans[rank][at[rank]]
                dep = depends(kind, rank, item, p, v)
                if dep is not None and dep not in done:
                    break
                start = max(free[rank], done[dep] if dep else 0.0)
                free[rank] = start + (forward if kind == "F" else backward)
                done[(kind, rank, *item)] = free[rank]
                held[rank] += 1 if kind == "F" else -1
                most = max(most, held[rank])
                at[rank] += 1
                moved = True
    if any(at[rank] < len(plans[rank]) for rank in range(p)):
        return None
    return max(free) / (m * v * (forward + backward)) - 1.0, most


def greedy(p: int, v: int, m: int, group: int, cap: int, forward: float = 1.0,
           backward: float = 2.0) -> tuple[float, int] | None:
    """As `megatron`, for the greedy order with at most `cap` chunk activations held per rank."""
    fwd, bwd = order(m, v, group, False), order(m, v, group, True)
    total = len(fwd)
    done: dict[tuple[str, int, int, int], float] = {}
    nf, nb, free, held, most = [0] * p, [0] * p, [0.0] * p, [0] * p, 0
    for _ in range(2 * total * p):
        best: tuple[tuple[float, int, int], str] | None = None
        for rank in range(p):
            if nb[rank] < total:
                item = bwd[nb[rank]]
                dep = depends("B", rank, item, p, v)
                if dep in done and ("F", rank, *item) in done:
                    key = (max(free[rank], done[dep]), 0, rank)
                    best = min(best, (key, "B")) if best else (key, "B")
            if nf[rank] < total and held[rank] < cap:
                item = fwd[nf[rank]]
                dep = depends("F", rank, item, p, v)
                if dep is None or dep in done:
                    key = (max(free[rank], done[dep] if dep else 0.0), 1, rank)
                    best = min(best, (key, "F")) if best else (key, "F")
        if best is None:
            return None
        (start, _, rank), kind = best
        item = fwd[nf[rank]] if kind == "F" else bwd[nb[rank]]
        if kind == "F":
            nf[rank] += 1
            held[rank] += 1
            most = max(most, held[rank])
        else:
            nb[rank] += 1
            held[rank] -= 1
        free[rank] = start + (forward if kind == "F" else backward)
        done[(kind, rank, *item)] = free[rank]
    return max(free) / (m * v * (forward + backward)) - 1.0, most


def main() -> None:
    print("| p | v | m | N | order | bubble | most held | (p − 1)/(v·m) |")
    print("|---|---|---|---|---|---|---|---|")
    for p, v, m in ((16, 8, 32), (16, 8, 16)):
        ideal = (p - 1) / (v * m)
        for group in (16, 12, 8, 4):
            got = megatron(p, v, m, group)
            text = "deadlock | —" if got is None else f"{got[0]:.3f} | {got[1]}"
            print(f"| {p} | {v} | {m} | {group} | Megatron-Core | {text} | {ideal:.3f} |")
        for group, cap in ((16, 10_000), (16, 128), (16, 120), (16, 113), (16, 112), (12, 10_000), (12, 97), (8, 10_000), (8, 80), (4, 10_000)):
            got = greedy(p, v, m, group, cap)
            text = "deadlock | —" if got is None else f"{got[0]:.3f} | {got[1]}"
            label = "greedy" + ("" if cap >= 10_000 else f", at most {cap} held")
            print(f"| {p} | {v} | {m} | {group} | {label} | {text} | {ideal:.3f} |")


if __name__ == "__main__":
    main()

"""Random barcode panels for the demux benchmarks (bench_demux.sh, bench_demux_long.sh)."""


def close(a, c, limit):
    """Whether the edit distance of a and c is below limit (DP, stopped once a row is past it)."""
    prev = list(range(len(c) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(c)
        for j in range(1, len(c) + 1):
            cur[j] = min(prev[j - 1] + (a[i - 1] != c[j - 1]), prev[j] + 1, cur[j - 1] + 1)
        if min(cur) >= limit:
            return False
        prev = cur
    return prev[-1] < limit


def random_barcodes(rng, count, length=24, min_dist=6):
    """count random ACGT barcodes of length bases, pairwise edit distance >= min_dist."""
    barcodes = []
    while len(barcodes) < count:
        s = "".join(rng.choice("ACGT") for _ in range(length))
        if all(not close(s, t, min_dist) for t in barcodes):
            barcodes.append(s)
    return barcodes

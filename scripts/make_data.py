#!/usr/bin/env python3
"""Generates the bundled example data in data/ (seeded, reproducible; stdlib only).

  genome.fa       a 200 kbp random genome in 2 records, 80 columns, with primer sites planted
  reads.fastq.gz  2,000 reads of 150 bp sampled from the genome (both strands, 1% errors);
                  the README pattern is planted with 0-3 edits in every 10th read
  primers.fa      4 primers (23 bp) as a pattern FASTA
  barcodes.txt    8 barcodes (12 bp), one per line, for -l
"""
import gzip
import os
import random

SEED = 20261202
README_PATTERN = "TATCTATCTGGCATTCAACCAGG"
rng = random.Random(SEED)
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data")


def rand_seq(n):
    return "".join(rng.choice("ACGT") for _ in range(n))


def revcomp(s):
    return s.translate(str.maketrans("ACGTN", "TGCAN"))[::-1]


def mutate(s, edits):
    s = list(s)
    for _ in range(edits):
        op = rng.choice("sid")
        i = rng.randrange(len(s))
        if op == "s":
            s[i] = rng.choice([c for c in "ACGT" if c != s[i]])
        elif op == "i":
            s.insert(i, rng.choice("ACGT"))
        elif len(s) > 1:
            del s[i]
    return "".join(s)


primers = [README_PATTERN] + [rand_seq(23) for _ in range(3)]
chroms = []
for name, length in (("chrA", 120_000), ("chrB", 80_000)):
    seq = list(rand_seq(length))
    for p in primers:
        for _ in range(3):
            site = mutate(p if rng.random() < 0.5 else revcomp(p), rng.randrange(3))
            at = rng.randrange(length - len(site))
            seq[at:at + len(site)] = site
    # a run of N, as assemblies have
    at = rng.randrange(length - 500)
    seq[at:at + 300] = "N" * 300
    chroms.append((name, "".join(seq)[:length]))

with open(os.path.join(out, "genome.fa"), "w") as f:
    for name, seq in chroms:
        f.write(f">{name} random example chromosome\n")
        for i in range(0, len(seq), 80):
            f.write(seq[i:i + 80] + "\n")

with gzip.GzipFile(os.path.join(out, "reads.fastq.gz"), "wb", mtime=0) as gz:
    for r in range(2000):
        name, chrom = rng.choice(chroms)
        at = rng.randrange(len(chrom) - 150)
        read = chrom[at:at + 150]
        if r % 10 == 0:
            site = mutate(README_PATTERN, rng.randrange(4))
            pos = rng.randrange(150 - len(site))
            read = read[:pos] + site + read[pos + len(site):]
            read = read[:150]
        if rng.random() < 0.5:
            read = revcomp(read)
        read = "".join(c if rng.random() > 0.01 else rng.choice("ACGT") for c in read)
        qual = "".join(chr(33 + rng.randrange(20, 41)) for _ in read)
        gz.write(f"@read{r + 1} {name}:{at}\n{read}\n+\n{qual}\n".encode())

with open(os.path.join(out, "primers.fa"), "w") as f:
    for i, p in enumerate(primers):
        f.write(f">primer{i + 1}\n{p}\n")

with open(os.path.join(out, "barcodes.txt"), "w") as f:
    for _ in range(8):
        f.write(rand_seq(12) + "\n")

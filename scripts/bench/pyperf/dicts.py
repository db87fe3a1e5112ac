# Dict and str work: word counts, formatting, joins, methods (pyperformance: dict/str heavy ones).
def main():
    words = ["w%d" % (i * 7919 % 10007) for i in range(150000)]
    counts = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    keys = sorted(counts)
    joined = ",".join("%s=%d" % (k, counts[k]) for k in keys)
    upper = sum(len(w.upper().replace("W", "ww")) for w in words)
    parts = joined.split(",")
    print(len(counts), len(joined), upper, len(parts), parts[17])

main()

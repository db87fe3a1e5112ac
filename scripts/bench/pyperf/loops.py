# Integer arithmetic in nested loops (pyperformance: the loops of nbody/spectral_norm).
def main():
    s = 0
    for i in range(1200):
        for j in range(1000):
            s += (i * j) & 0xFF
    print(s)

main()

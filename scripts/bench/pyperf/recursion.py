# Recursive function calls (pyperformance: fib-like call-heavy code, the calls of richards).
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)

def ack(m, n):
    if m == 0:
        return n + 1
    if n == 0:
        return ack(m - 1, 1)
    return ack(m - 1, ack(m, n - 1))

def main():
    print(fib(25), ack(2, 300))

main()

# list.sort and sorted on ints, strings and tuples with keys (pyperformance: the sort parts of many).
def main():
    x, nums = 12345, []
    for _ in range(200000):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        nums.append(x)
    a = sorted(nums)
    strs = sorted(str(n) for n in nums[:100000])
    pairs = sorted(((n % 1000, n) for n in nums[:100000]), key=lambda p: (p[0], -p[1]))
    nums.sort(reverse=True)
    print(a[1000], strs[1000], pairs[1000], nums[1000])

main()

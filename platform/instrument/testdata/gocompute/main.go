// A compute-heavy Go guest (GOOS=wasip1) with goroutines, channels, maps, sorting,
// hashing, recursion and a forced GC: its output must not change when instrumented.
package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
)

func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

func primes(limit int) int {
	sieve := make([]bool, limit)
	n := 0
	for i := 2; i < limit; i++ {
		if !sieve[i] {
			n++
			for j := i * i; j < limit; j += i {
				sieve[j] = true
			}
		}
	}
	return n
}

func main() {
	results := make(chan string, 4)
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results <- fmt.Sprintf("worker %d: primes<%d=%d", w, 100000*(w+1), primes(100000*(w+1)))
		}()
	}
	wg.Wait()
	close(results)
	var lines []string
	for r := range results {
		lines = append(lines, r)
	}
	sort.Strings(lines)
	fmt.Println(strings.Join(lines, "\n"))

	m := map[string]int{}
	for i := 0; i < 50000; i++ {
		m[strconv.Itoa(i*7919%10007)]++
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		fmt.Fprintf(h, "%s=%d;", k, m[k])
	}
	fmt.Printf("map: %d keys, sha256 %x\n", len(keys), h.Sum(nil)[:8])
	runtime.GC()
	fmt.Println("fib(25) =", fib(25))
	if len(os.Args) > 1 {
		fmt.Println("args:", os.Args[1:])
	}
	os.Exit(3)
}

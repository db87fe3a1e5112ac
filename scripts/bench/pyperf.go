package main

import (
	"embed"
	"math"
	"path"
	"strconv"
	"strings"
	"time"
)

// pyperf/*.py: six small benchmarks in the manner of pyperformance (loops, dict and str
// work, json, regex, sorting, recursion), each printing a checksum. They hold no single
// quote, so each runs as python3 -c '…' in every sandbox (native, Node, Chromium,
// Pyodide) and natively, with no file to copy in.
//
//go:embed pyperf/*.py
var pyperfFiles embed.FS

func pyperfCases() []pipeCase {
	entries, err := pyperfFiles.ReadDir("pyperf")
	check(err)
	var cases []pipeCase
	for _, e := range entries {
		code, err := pyperfFiles.ReadFile(path.Join("pyperf", e.Name()))
		check(err)
		if strings.Contains(string(code), "'") {
			fail("pyperf/%s: a single quote cannot go in python3 -c '…'", e.Name())
		}
		cases = append(cases, pipeCase{"pyperf: " + strings.TrimSuffix(e.Name(), ".py"), "python3 -c '" + string(code) + "'", 3})
	}
	return cases
}

// pythonCode is the code of a case's script python3 -c '…', for the host's python3.
func pythonCode(script string) string {
	return strings.TrimSuffix(strings.TrimPrefix(script, "python3 -c '"), "'")
}

// pyperfTimed makes python3 report on stderr how long a case's code took, start-up
// left out: the table shows the least of a case's runs (minTime), the one least disturbed.
func pyperfTimed(code string) string {
	return "import time as _time, sys as _sys\n_t0 = _time.perf_counter()\n" + code +
		"\n_sys.stderr.write(repr(_time.perf_counter() - _t0))\n"
}

// pyperfTime reads what pyperfTimed wrote.
func pyperfTime(name string, stderr []byte) time.Duration {
	s, err := strconv.ParseFloat(strings.TrimSpace(string(stderr)), 64)
	if err != nil {
		fail("%s: no time on stderr: %q", name, stderr)
	}
	return time.Duration(s * float64(time.Second))
}

// minTime is the lesser of two times, 0 standing for none yet.
func minTime(a, b time.Duration) time.Duration {
	if a == 0 {
		return b
	}
	return min(a, b)
}

// geomean of ratios: pyperformance's summary of a set.
func geomean(ratios []float64) float64 {
	s := 0.0
	for _, r := range ratios {
		s += math.Log(r)
	}
	return math.Exp(s / float64(len(ratios)))
}

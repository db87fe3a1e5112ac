package main

import (
	"embed"
	"math"
	"path"
	"strings"
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

// geomean of ratios: pyperformance's summary of a set.
func geomean(ratios []float64) float64 {
	s := 0.0
	for _, r := range ratios {
		s += math.Log(r)
	}
	return math.Exp(s / float64(len(ratios)))
}

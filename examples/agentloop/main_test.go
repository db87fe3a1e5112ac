package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestAgentLoop(t *testing.T) {
	t.Setenv("WASMSAND_ASSETS", "")
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`-> {"exitCode":0,"content":"wrote 31 bytes to data/scores.csv"}`,
		`-> {"stdout":"mean: 84\n","exitCode":0}`,
		`-> {"exitCode":0,"content":"mean: 84\n"}`,
		`bytes left out of 43893 ...]`,
		`-> {"exitCode":1,"error":"ReadFile missing.txt: no such file or directory"}`,
		"the model is done",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in:\n%s", want, out.String())
		}
	}
}

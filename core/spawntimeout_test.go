package core

import (
	"testing"
	"time"
)

func TestSpawnTimeout(t *testing.T) {
	d, env, ok := spawnTimeout([]string{"A=1", "WASMSAND_SPAWN_TIMEOUT_MS=1500", "B=2"})
	if !ok || d != 1500*time.Millisecond || len(env) != 2 || env[0] != "A=1" || env[1] != "B=2" {
		t.Fatalf("got %v %v %v", d, env, ok)
	}
	// a bad value is dropped, not applied
	if _, env, ok := spawnTimeout([]string{"WASMSAND_SPAWN_TIMEOUT_MS=x", "C=3"}); ok || len(env) != 1 || env[0] != "C=3" {
		t.Fatalf("bad value: %v %v", env, ok)
	}
	if _, env, ok := spawnTimeout([]string{"C=3"}); ok || len(env) != 1 {
		t.Fatalf("absent: %v %v", env, ok)
	}
}

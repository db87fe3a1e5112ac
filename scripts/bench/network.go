package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/wasmsand/wasmsand/bridge"
	"github.com/wasmsand/wasmsand/commands/curl"
	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/policy"
)

// networkBench is the bridge's cost per request beside a direct net/http
// request to the same server on 127.0.0.1 (the only address it talks to).
func networkBench(ctx context.Context) {
	fmt.Println()
	body := make([]byte, 1024)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }))
	defer srv.Close()
	direct := &http.Client{}
	get := func(do func() (io.ReadCloser, error)) func() {
		return func() {
			rc, err := do()
			check(err)
			_, err = io.Copy(io.Discard, rc)
			check(err)
			rc.Close()
		}
	}
	client, err := bridge.New(policy.Network{Allow: []policy.Rule{{URL: srv.URL + "/"}}}, bridge.Budget{MaxRequests: 1 << 30})
	check(err)
	sb, err := core.New(ctx, core.Options{Commands: curl.Commands(client)})
	check(err)
	defer sb.Close()
	tDirect := per(500, get(func() (io.ReadCloser, error) {
		res, err := direct.Get(srv.URL + "/x")
		if err != nil {
			return nil, err
		}
		return res.Body, nil
	}))
	tBridge := per(500, get(func() (io.ReadCloser, error) {
		res, err := client.Do(ctx, bridge.Request{URL: srv.URL + "/x"})
		if err != nil {
			return nil, err
		}
		return res.Body, nil
	}))
	tCurl := per(200, func() {
		res, err := sb.Run(ctx, "curl -s "+srv.URL+"/x", core.RunOptions{})
		check(err)
		if res.ExitCode != 0 || len(res.Stdout) != len(body) {
			fail("curl in the sandbox: exit %d, %d bytes: %s", res.ExitCode, len(res.Stdout), res.Stderr)
		}
	})
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f ms", float64(d)/float64(time.Millisecond)) }
	fmt.Printf("%-44s %12s %10s\n", "network (1 KiB GET from 127.0.0.1)", "per request", "ratio")
	fmt.Printf("%-44s %12s %10s\n", "net/http, kept-alive connection", ms(tDirect), "1.00×")
	fmt.Printf("%-44s %12s %9.2f×\n", "bridge.Client.Do (rules, checked dial)", ms(tBridge), float64(tBridge)/float64(tDirect))
	fmt.Printf("%-44s %12s %9.2f×\n", "curl -s in a sandbox (shell + curl + bridge)", ms(tCurl), float64(tCurl)/float64(tDirect))
	fmt.Println("(the bridge dials a new connection per request: its address is checked where it is dialled)")
}

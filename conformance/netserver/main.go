// Command netserver serves the conformance suite's network group
// (conformance.NetHandler at conformance.NetAddr) for the runners written
// in JavaScript (Node, Chromium, node/test/suite.mjs). Once it listens it
// prints, on one line, the network policy the group's sandbox gets
// ({"network": {"allow": [{url, methods}...]}}); it stops when its stdin
// closes.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"

	"github.com/wasmsand/wasmsand/conformance"
)

func main() {
	l, err := net.Listen("tcp", conformance.NetAddr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "netserver:", err)
		os.Exit(1)
	}
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
	type rule struct {
		URL     string   `json:"url"`
		Methods []string `json:"methods"`
	}
	var p struct {
		Network struct {
			Allow []rule `json:"allow"`
		} `json:"network"`
	}
	for _, u := range conformance.NetAllow {
		p.Network.Allow = append(p.Network.Allow, rule{u, conformance.NetMethods})
	}
	b, _ := json.Marshal(p)
	fmt.Println(string(b))
	_ = http.Serve(l, conformance.NetHandler())
}

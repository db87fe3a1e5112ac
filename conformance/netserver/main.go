// Command netserver serves the conformance suite's network group
// (conformance.NetHandler at conformance.NetAddr) for the runners written
// in JavaScript (Node, Chromium). It prints "ready" once it listens and
// stops when its stdin closes.
package main

import (
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
	fmt.Println("ready")
	_ = http.Serve(l, conformance.NetHandler())
}

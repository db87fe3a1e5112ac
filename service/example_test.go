package service_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/wasmsand/wasmsand/core"
	"github.com/wasmsand/wasmsand/service"
)

// A Go server embeds the HTTP service as a handler: every session a
// client creates is a sandbox made here (the operator's limits, tools and
// policy go into core.Options).
func Example() {
	svc := service.New(service.Options{
		NewSandbox: func(ctx context.Context, req service.CreateRequest, onEvent func(core.Event)) (*core.Sandbox, error) {
			return core.New(ctx, core.Options{Env: req.Env, OnEvent: onEvent})
		},
		Tokens: []string{"secret-token"},
	})
	defer svc.Close()
	mux := http.NewServeMux()
	mux.Handle("/v1/", svc.Handler()) // beside the application's own routes
	srv := httptest.NewServer(mux)
	defer srv.Close()

	post := func(path, body string) string {
		req, _ := http.NewRequest("POST", srv.URL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer secret-token")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err.Error()
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	created := post("/v1/sessions", `{}`)
	id := created[strings.Index(created, `"id":"`)+6:]
	id = id[:strings.Index(id, `"`)]
	out := post("/v1/sessions/"+id+"/run", `{"command": "echo hello from bash ${BASH_VERSION%%.*}"}`)
	fmt.Println(out[:strings.Index(out, `,"stderr"`)])
	// Output: {"exit_code":0,"stdout":"hello from bash 5\n"
}

package service

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// route is one operation: the handler and the OpenAPI document are both
// made from this table, so neither can list what the other lacks.
type route struct {
	method, path string // path in OpenAPI's form: /v1/sessions/{id}
	id, summary  string
	request      any // the JSON body's type (nil: none; []byte: raw bytes)
	response     any // the 2xx body's type (nil: none; []byte: raw bytes)
	status       int
	query        []param
	handle       func(s *Server) func(w http.ResponseWriter, r *http.Request, token string) error
}

type param struct{ name, description string }

var pathParam = param{"path", "a path in the sandbox (relative paths are from the session's working directory)"}

var routes = []route{
	{"POST", "/v1/sessions", "createSession", "Create a session (a sandbox)", CreateRequest{}, Session{}, 201, nil,
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.create }},
	{"GET", "/v1/sessions", "listSessions", "List this token's sessions", nil, SessionList{}, 200, nil,
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.list }},
	{"GET", "/v1/sessions/{id}", "getSession", "Describe a session", nil, Session{}, 200, nil,
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.get }},
	{"DELETE", "/v1/sessions/{id}", "deleteSession", "Delete a session (a run in it is cancelled)", nil, nil, 204, nil,
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.remove }},
	{"POST", "/v1/sessions/{id}/run", "run", "Run a bash script: the whole result, or server-sent events (stream, or Accept: text/event-stream): stdout and stderr chunks, event, then result (or error)",
		RunRequest{}, RunResult{}, 200, nil,
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.runs }},
	{"GET", "/v1/sessions/{id}/files", "getFile", "A file's bytes, or a directory's listing (JSON)", nil, []byte(nil), 200, []param{pathParam},
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.getFile }},
	{"PUT", "/v1/sessions/{id}/files", "putFile", "Create or replace a file with the body's bytes (parent directories are made)", []byte(nil), Written{}, 200,
		[]param{pathParam, {"mode", "the file's mode, octal (default 644)"}},
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.putFile }},
	{"DELETE", "/v1/sessions/{id}/files", "deleteFile", "Remove a file, or a directory with recursive=true", nil, nil, 204,
		[]param{pathParam, {"recursive", "true to remove a directory and everything in it"}},
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.deleteFile }},
	{"POST", "/v1/sessions/{id}/snapshots", "snapshot", "Record the session's files (copy-on-write, instant)", nil, SnapshotRef{}, 201, nil,
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.snapshot }},
	{"POST", "/v1/sessions/{id}/restore", "restore", "Put the session's files back as a snapshot has them", SnapshotRef{}, nil, 204, nil,
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.restore }},
	{"POST", "/v1/sessions/{id}/fork", "fork", "Make a new session that starts as a copy of this one", nil, Session{}, 201, nil,
		func(s *Server) func(http.ResponseWriter, *http.Request, string) error { return s.fork }},
}

// OpenAPIPath is where the document is served.
const OpenAPIPath = "/v1/openapi.json"

// Handler serves the API (and its OpenAPI document, without a token).
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, rt := range routes {
		mux.Handle(rt.method+" "+rt.path, s.handler(rt.handle(s)))
	}
	doc, _ := json.MarshalIndent(OpenAPI(), "", "  ")
	mux.HandleFunc("GET "+OpenAPIPath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(doc)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeErr(w, errf(404, "not_found", "no route %s %s (see %s)", r.Method, r.URL.Path, OpenAPIPath))
	})
	return mux
}

// RawBody tells whether a request's body is bytes (a file upload) rather
// than JSON, by the routes table: the HTTP front (internal/httpguard)
// requires application/json for every other body.
func RawBody(r *http.Request) bool {
	_, pattern := rawRoutes().Handler(r)
	return pattern != ""
}

// rawRoutes matches the routes whose body is bytes, as Handler's mux
// matches every route.
var rawRoutes = sync.OnceValue(func() *http.ServeMux {
	mux := http.NewServeMux()
	for _, rt := range routes {
		if _, raw := rt.request.([]byte); raw {
			mux.Handle(rt.method+" "+rt.path, http.NotFoundHandler())
		}
	}
	return mux
})

// OpenAPI is the API's OpenAPI 3.1 document, schemas made from the Go types.
func OpenAPI() map[string]any {
	schemas := map[string]any{}
	ref := func(v any) map[string]any {
		t := reflect.TypeOf(v)
		if _, ok := schemas[t.Name()]; !ok {
			schemas[t.Name()] = schemaOf(t)
		}
		return map[string]any{"$ref": "#/components/schemas/" + t.Name()}
	}
	errResp := map[string]any{"description": "an error", "content": map[string]any{"application/json": map[string]any{"schema": ref(ErrorBody{})}}}
	paths := map[string]any{}
	for _, rt := range routes {
		op := map[string]any{"operationId": rt.id, "summary": rt.summary}
		var params []any
		if strings.Contains(rt.path, "{id}") {
			params = append(params, map[string]any{"name": "id", "in": "path", "required": true, "schema": map[string]any{"type": "string"}})
		}
		for _, q := range rt.query {
			params = append(params, map[string]any{"name": q.name, "in": "query", "required": q.name == "path",
				"description": q.description, "schema": map[string]any{"type": "string"}})
		}
		if params != nil {
			op["parameters"] = params
		}
		switch rt.request.(type) {
		case nil:
		case []byte:
			op["requestBody"] = map[string]any{"required": true, "content": map[string]any{"application/octet-stream": map[string]any{"schema": map[string]any{"type": "string", "format": "binary"}}}}
		default:
			// (a create may have no body: every field of CreateRequest is optional)
			_, optional := rt.request.(CreateRequest)
			op["requestBody"] = map[string]any{"required": !optional, "content": map[string]any{"application/json": map[string]any{"schema": ref(rt.request)}}}
		}
		ok := map[string]any{"description": http.StatusText(rt.status)}
		switch rt.response.(type) {
		case nil:
		case []byte:
			ok["content"] = map[string]any{
				"application/octet-stream": map[string]any{"schema": map[string]any{"type": "string", "format": "binary"}},
				"application/json":         map[string]any{"schema": ref(Listing{})},
			}
		default:
			c := map[string]any{"application/json": map[string]any{"schema": ref(rt.response)}}
			if rt.id == "run" {
				c["text/event-stream"] = map[string]any{"schema": map[string]any{"type": "string",
					"description": `events stdout and stderr (data: {"text"} or {"base64"}), event (data: a sandbox event), result (data: RunResult without output), error (data: ErrorBody)`}}
			}
			ok["content"] = c
		}
		// 4XX: the client's errors (bad input, no such session, quotas),
		// default: the rest; both an ErrorBody with its stable code
		op["responses"] = map[string]any{strings.TrimSpace(itoa(rt.status)): ok, "4XX": errResp, "default": errResp}
		if p, found := paths[rt.path]; found {
			p.(map[string]any)[strings.ToLower(rt.method)] = op
		} else {
			paths[rt.path] = map[string]any{strings.ToLower(rt.method): op}
		}
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "wasmsand", "version": "1",
			"description": "Sandboxes for agents: bash 5.2, GNU tools and python3 over a virtual file system, in WebAssembly.",
			"license":     map[string]any{"name": "Apache-2.0", "identifier": "Apache-2.0"}},
		// the server that serves this document (wasmsand serve --listen)
		"servers":  []any{map[string]any{"url": "/", "description": "this server"}},
		"security": []any{map[string]any{"bearer": []any{}}},
		"paths":    paths,
		"components": map[string]any{
			"schemas":         schemas,
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer"}},
		},
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func schemaOf(t reflect.Type) any {
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{})
	if err != nil {
		return map[string]any{"type": "object"}
	}
	// A Go slice may be nil, so its schema allows null; the service always
	// sends a list (empty: []), and generated clients should not have to
	// check for null.
	b, err := json.Marshal(s)
	if err != nil {
		return s
	}
	var m any
	if json.Unmarshal(b, &m) != nil {
		return s
	}
	return noNullArrays(m)
}

// noNullArrays turns every "type": ["null", "array"] into "array".
func noNullArrays(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if ts, ok := v["type"].([]any); ok && len(ts) == 2 && ts[0] == "null" && ts[1] == "array" {
			v["type"] = "array"
		}
		for k, x := range v {
			v[k] = noNullArrays(x)
		}
	case []any:
		for i, x := range v {
			v[i] = noNullArrays(x)
		}
	}
	return v
}

package service

import (
	"encoding/json"
	"os"
	"testing"
)

// TestOpenAPIFile writes the OpenAPI document where WASMSAND_OPENAPI_OUT
// says, for the tools that check it (make lint-openapi: Redocly).
func TestOpenAPIFile(t *testing.T) {
	out := os.Getenv("WASMSAND_OPENAPI_OUT")
	if out == "" {
		t.Skip("WASMSAND_OPENAPI_OUT names where to write the document (make lint-openapi)")
	}
	b, err := json.MarshalIndent(OpenAPI(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

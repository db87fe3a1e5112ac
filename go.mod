module github.com/wasmsand/wasmsand

go 1.26.0

require (
	github.com/andybalholm/brotli v1.3.0
	github.com/evanw/esbuild v0.28.2
	github.com/hack-pad/hackpadfs v0.2.4
	github.com/stretchr/testify v1.12.1
	github.com/tetratelabs/wazero v1.12.0
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/term v0.45.0
)

require (
	github.com/hack-pad/go-indexeddb v0.3.2 // indirect
	github.com/hack-pad/safejs v0.1.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
)

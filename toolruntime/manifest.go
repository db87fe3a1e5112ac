package toolruntime

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/wasmsand/wasmsand/policy"
)

// Manifest is the worker's tool list (the design's §6), one YAML document:
//
//	version: 1
//	tools:
//	  echo_tool:
//	    runtime: python          # python (default), shell or wasm
//	    module: example_tools    # python: import path under the tools directory; wasm: the .wasm file
//	    function: echo_tool      # python: the function called
//	    command: 'jq .message'   # shell: a bash script; args arrive as JSON on stdin
//	    package: sam-tool-x      # python: installed from the worker's index at start-up
//	    version: ">=1.0,<2.0"
//	    description: Echo back a message
//	    timeout_seconds: 30      # default 300
//	    sandbox_profile: standard  # restrictive, standard (default) or permissive
//	    sha256: 9f86d0...        # of the tool's code (its module file, or its package's
//	                             # files: Tool.verify): checked before it is loaded
type Manifest struct {
	Version int             `yaml:"version"`
	Tools   map[string]Tool `yaml:"tools"`
}

// Tool is one entry of a manifest.
type Tool struct {
	Runtime        string  `yaml:"runtime"`
	Module         string  `yaml:"module"`
	Function       string  `yaml:"function"`
	Command        string  `yaml:"command"`
	Package        string  `yaml:"package"`
	Version        string  `yaml:"version"`
	Description    string  `yaml:"description"`
	TimeoutSeconds float64 `yaml:"timeout_seconds"`
	SandboxProfile string  `yaml:"sandbox_profile"`
	SHA256         string  `yaml:"sha256"`
}

// DefaultTimeout is a tool's time limit when neither its manifest entry nor the
// request gives one (the design: 300 s).
const DefaultTimeout = 300

var (
	toolName   = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)
	pyModule   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$`)
	pyFunction = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	hexSHA256  = regexp.MustCompile(`^[0-9a-f]{64}$`)
)

// ParseManifest reads and checks a manifest; errors name the tool and field.
func ParseManifest(b []byte) (*Manifest, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var m Manifest
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("manifest: %v", err)
	}
	if m.Version != 1 {
		return nil, fmt.Errorf("manifest: version must be 1 (got %d)", m.Version)
	}
	names := make([]string, 0, len(m.Tools))
	for name := range m.Tools {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t := m.Tools[name]
		if err := t.check(name); err != nil {
			return nil, fmt.Errorf("manifest: tool %s: %v", name, err)
		}
		m.Tools[name] = t
	}
	return &m, nil
}

// LoadManifest reads the manifest file at p.
func LoadManifest(p string) (*Manifest, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	m, err := ParseManifest(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", p, err)
	}
	return m, nil
}

func (t *Tool) check(name string) error {
	if !toolName.MatchString(name) {
		return errors.New("a tool name is 1-128 letters, digits, '_' or '-' (it is a subject token)")
	}
	if t.Runtime == "" {
		t.Runtime = "python"
	}
	if t.SandboxProfile == "" {
		t.SandboxProfile = "standard"
	}
	if _, ok := policy.Profiles[t.SandboxProfile]; !ok {
		return fmt.Errorf("sandbox_profile %q: restrictive, standard or permissive", t.SandboxProfile)
	}
	if t.TimeoutSeconds < 0 || t.TimeoutSeconds > 86400 {
		return fmt.Errorf("timeout_seconds %v: between 0 and 86400", t.TimeoutSeconds)
	}
	if t.SHA256 != "" && !hexSHA256.MatchString(t.SHA256) {
		return errors.New("sha256: 64 lowercase hex digits")
	}
	switch t.Runtime {
	case "python":
		if !pyModule.MatchString(t.Module) {
			return fmt.Errorf("module %q: a python import path is required", t.Module)
		}
		if !pyFunction.MatchString(t.Function) {
			return fmt.Errorf("function %q: a python function name is required", t.Function)
		}
		if t.Command != "" {
			return errors.New("command: only for runtime shell")
		}
	case "shell":
		if strings.TrimSpace(t.Command) == "" {
			return errors.New("command: required for runtime shell")
		}
		if t.Module != "" || t.Function != "" || t.Package != "" {
			return errors.New("module, function and package are for runtime python (wasm: module)")
		}
	case "wasm":
		if !localPath(t.Module) || !strings.HasSuffix(t.Module, ".wasm") {
			return fmt.Errorf("module %q: the .wasm file, relative to the tools directory", t.Module)
		}
		if t.Function != "" || t.Package != "" {
			return errors.New("function and package are for runtime python")
		}
	default:
		return fmt.Errorf("runtime %q: python, shell or wasm", t.Runtime)
	}
	if t.Version != "" && t.Package == "" {
		return errors.New("version: constrains package, which is not given")
	}
	if t.Package != "" && t.SHA256 != "" {
		return errors.New("sha256 is of code in the tools directory: a package is checked against its index's sha256")
	}
	return nil
}

// localPath: a relative, clean path that stays below its directory.
func localPath(p string) bool {
	return p != "" && filepath.IsLocal(p) && path.Clean(p) == p && !strings.Contains(p, `\`)
}

// verify reads the tool's code and checks it against its sha256 (when the
// manifest gives one); it returns the code's files, relative to the tools
// directory (slash-separated): a wasm tool's module, a python tool's
// top-level module file (a.py), or its top-level package's whole directory
// (a/, without __pycache__, .pyc or dot files), so that nothing the tool
// imports from it escapes the hash; none for a shell tool (its command is
// its code) or a module its package provides.
//
// A file's sha256 is of its bytes; a package directory's is what
// `find a -type f ! -path '*/__pycache__/*' ! -name '*.pyc' ! -path '*/.*' |
// LC_ALL=C sort | xargs sha256sum | sha256sum` prints in the tools directory.
func (t *Tool) verify(toolsDir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	var sum [32]byte
	switch t.Runtime {
	case "shell":
		sum = sha256.Sum256([]byte(t.Command))
	case "wasm":
		b, err := os.ReadFile(filepath.Join(toolsDir, filepath.FromSlash(t.Module)))
		if err != nil {
			return nil, err
		}
		files[t.Module], sum = b, sha256.Sum256(b)
	case "python":
		top := strings.Split(t.Module, ".")[0]
		dir := filepath.Join(toolsDir, top)
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			var lines strings.Builder
			err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if strings.HasPrefix(d.Name(), ".") || d.Name() == "__pycache__" {
					if d.IsDir() {
						return filepath.SkipDir
					}
					return nil
				}
				if !d.Type().IsRegular() || strings.HasSuffix(d.Name(), ".pyc") {
					return nil
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				rel, _ := filepath.Rel(toolsDir, p)
				files[filepath.ToSlash(rel)] = b
				return nil
			})
			if err != nil {
				return nil, err
			}
			names := make([]string, 0, len(files))
			for n := range files {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				h := sha256.Sum256(files[n])
				fmt.Fprintf(&lines, "%s  %s\n", hex.EncodeToString(h[:]), n)
			}
			sum = sha256.Sum256([]byte(lines.String()))
		} else if b, err := os.ReadFile(dir + ".py"); err == nil {
			files[top+".py"], sum = b, sha256.Sum256(b)
		} else if t.Package != "" {
			return nil, nil // the module is the package's (pip checks it against the index's sha256)
		} else {
			return nil, fmt.Errorf("module %s: no %s.py or %s/ in the tools directory", t.Module, top, top)
		}
	}
	if t.SHA256 != "" {
		if got := hex.EncodeToString(sum[:]); got != t.SHA256 {
			return nil, fmt.Errorf("code hash %s does not match the manifest's %s", got, t.SHA256)
		}
	}
	return files, nil
}

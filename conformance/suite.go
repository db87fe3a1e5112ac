// Package conformance reads the public conformance suite in
// testdata/conformance: bash scripts whose stdout, stderr and exit status were
// recorded from real bash 5.2 and GNU tools (scripts/record-conformance), and
// the list of known differences. Its test (conformance_test.go) runs every
// case in a fresh sandbox and compares; see testdata/conformance/README.md.
package conformance

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Case is one script of the suite.
type Case struct {
	Group  string // the file it comes from: cases/<group>.txt
	Name   string // unique within the group
	Script string // bash source, ending in a newline
	Line   int    // line of its "=== name" header
}

// ID is "group/name", the name used in known-failures.txt and reports.
func (c Case) ID() string { return c.Group + "/" + c.Name }

// Hash identifies the script's text, so that a recording made from an older
// version of a case is noticed.
func (c Case) Hash() string {
	sum := sha256.Sum256([]byte(c.Script))
	return hex.EncodeToString(sum[:8])
}

// Result is what a case printed and its exit status.
type Result struct {
	Stdout string
	Stderr string
	Status int
}

// Recorded is the expected result of one case, as stored in
// cases/<group>.expected.json.
type Recorded struct {
	Name   string `json:"name"`
	Script string `json:"script_sha256"` // Case.Hash of the recorded script
	Status int    `json:"status"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// Output that is not UTF-8 is stored base64-encoded instead.
	StdoutB64 string `json:"stdout_base64,omitempty"`
	StderrB64 string `json:"stderr_base64,omitempty"`
}

// Result decodes the recording.
func (r Recorded) Result() (Result, error) {
	res := Result{Stdout: r.Stdout, Stderr: r.Stderr, Status: r.Status}
	if r.StdoutB64 != "" {
		b, err := base64.StdEncoding.DecodeString(r.StdoutB64)
		if err != nil {
			return res, fmt.Errorf("%s: stdout_base64: %w", r.Name, err)
		}
		res.Stdout = string(b)
	}
	if r.StderrB64 != "" {
		b, err := base64.StdEncoding.DecodeString(r.StderrB64)
		if err != nil {
			return res, fmt.Errorf("%s: stderr_base64: %w", r.Name, err)
		}
		res.Stderr = string(b)
	}
	return res, nil
}

// NewRecorded stores a result.
func NewRecorded(c Case, r Result) Recorded {
	rec := Recorded{Name: c.Name, Script: c.Hash(), Status: r.Status}
	if utf8.ValidString(r.Stdout) {
		rec.Stdout = r.Stdout
	} else {
		rec.StdoutB64 = base64.StdEncoding.EncodeToString([]byte(r.Stdout))
	}
	if utf8.ValidString(r.Stderr) {
		rec.Stderr = r.Stderr
	} else {
		rec.StderrB64 = base64.StdEncoding.EncodeToString([]byte(r.Stderr))
	}
	return rec
}

// ExpectedFile is the JSON document of cases/<group>.expected.json.
type ExpectedFile struct {
	Comment  string     `json:"comment"`
	Recorder string     `json:"recorder"` // bash and tool versions used
	Cases    []Recorded `json:"cases"`
}

var (
	headerRE = regexp.MustCompile(`^=== (\S+)\s*$`)
	nameRE   = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)
)

// ParseCases reads a case file: lines before the first "=== name" header are
// comments; each header starts a case whose script is every following line up
// to the next header, without trailing blank lines.
func ParseCases(group string, data []byte) ([]Case, error) {
	var (
		cases []Case
		cur   *Case
		body  []string
	)
	flush := func() error {
		if cur == nil {
			return nil
		}
		for len(body) > 0 && strings.TrimSpace(body[len(body)-1]) == "" {
			body = body[:len(body)-1]
		}
		if len(body) == 0 {
			return fmt.Errorf("%s.txt:%d: case %s has no script", group, cur.Line, cur.Name)
		}
		cur.Script = strings.Join(body, "\n") + "\n"
		cases = append(cases, *cur)
		cur, body = nil, nil
		return nil
	}
	seen := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.HasPrefix(line, "===") {
			m := headerRE.FindStringSubmatch(line)
			if m == nil || !nameRE.MatchString(m[1]) {
				return nil, fmt.Errorf("%s.txt:%d: bad case header %q (want \"=== name\", name of [A-Za-z0-9._+-])", group, n, line)
			}
			if err := flush(); err != nil {
				return nil, err
			}
			if prev, dup := seen[m[1]]; dup {
				return nil, fmt.Errorf("%s.txt:%d: case %s already defined at line %d", group, n, m[1], prev)
			}
			seen[m[1]] = n
			cur = &Case{Group: group, Name: m[1], Line: n}
			continue
		}
		if cur != nil {
			body = append(body, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return cases, nil
}

// Groups lists the case files of a suite directory, sorted.
func Groups(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "cases", "*.txt"))
	if err != nil {
		return nil, err
	}
	var groups []string
	for _, f := range files {
		groups = append(groups, strings.TrimSuffix(filepath.Base(f), ".txt"))
	}
	sort.Strings(groups)
	return groups, nil
}

// LoadCases reads cases/<group>.txt of a suite directory.
func LoadCases(dir, group string) ([]Case, error) {
	data, err := os.ReadFile(CasesPath(dir, group))
	if err != nil {
		return nil, err
	}
	return ParseCases(group, data)
}

// CasesPath and ExpectedPath are a group's files in a suite directory.
func CasesPath(dir, group string) string {
	return filepath.Join(dir, "cases", group+".txt")
}

func ExpectedPath(dir, group string) string {
	return filepath.Join(dir, "cases", group+".expected.json")
}

// LoadExpected reads cases/<group>.expected.json.
func LoadExpected(dir, group string) (*ExpectedFile, error) {
	data, err := os.ReadFile(ExpectedPath(dir, group))
	if err != nil {
		return nil, err
	}
	var f ExpectedFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", ExpectedPath(dir, group), err)
	}
	return &f, nil
}

// Encode writes an expected file deterministically: fixed field order,
// two-space indentation, no HTML escaping, a final newline.
func (f *ExpectedFile) Encode() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// KnownFailure is one entry of known-failures.txt.
type KnownFailure struct {
	ID     string // group/name
	Reason string
	Line   int
}

// LoadKnownFailures reads known-failures.txt: one "group/name  reason" per
// line; blank lines and lines starting with # are ignored. Every entry needs
// a reason.
func LoadKnownFailures(path string) (map[string]KnownFailure, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return map[string]KnownFailure{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]KnownFailure{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		id, reason, _ := strings.Cut(line, " ")
		if t := strings.IndexByte(id, '\t'); t >= 0 {
			id, reason = line[:t], line[t+1:]
		}
		reason = strings.TrimSpace(reason)
		if !strings.Contains(id, "/") || reason == "" {
			return nil, fmt.Errorf("%s:%d: want \"group/name reason\", got %q", path, i+1, line)
		}
		if prev, dup := out[id]; dup {
			return nil, fmt.Errorf("%s:%d: %s already listed at line %d", path, i+1, id, prev.Line)
		}
		out[id] = KnownFailure{ID: id, Reason: reason, Line: i + 1}
	}
	return out, nil
}

// lineRE is the location bash adds to its own messages when it runs a script
// (`bash: line 3: x: command not found`, `bash: -c: line 1: syntax error...`).
var lineRE = regexp.MustCompile(`(?m)^bash: (-c: )?line [0-9]+: `)

// NormalizeStderr is the one normalization applied to stderr before it is
// compared (to both sides): the line location of bash's own messages is
// dropped, "bash: line N: " and "bash: -c: line N: " become "bash: ".
// Nothing else is rewritten: a different program name, wording or order is a
// difference, to be listed in known-failures.txt if it is accepted.
func NormalizeStderr(s string) string {
	return lineRE.ReplaceAllString(s, "bash: ")
}

package text

import (
	"context"
	"io"

	"github.com/wasmsand/wasmsand/shell"
)

// less is `less`: with no terminal to page on, it prints its files (or
// stdin) like cat, which is what an agent reading its output wants.
func less(ctx context.Context, s *shell.Session, req *shell.ExecRequest) int {
	var files []string
	for _, a := range req.Argv[1:] {
		if a == "--" || (len(a) > 1 && (a[0] == '-' || a[0] == '+')) {
			continue // display options have no meaning here
		}
		files = append(files, a)
	}
	return s.EachInput(req, files, "", func(r io.Reader) error {
		_, err := io.Copy(req.Stdout, r)
		return err
	})
}

package curl

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"path"
	"strings"

	"github.com/wasmsand/wasmsand/shell"
)

// multipartBody is curl -F's body: name=value, name=@file (uploaded with
// its name) and name=<file (its content as the value).
func multipartBody(s *shell.Session, req *shell.ExecRequest, fields [][2]string) ([]byte, string, error) {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, f := range fields {
		name, v := f[0], f[1]
		switch {
		case strings.HasPrefix(v, "@") || strings.HasPrefix(v, "<"):
			file, _, _ := strings.Cut(v[1:], ";")
			data, err := s.FS().ReadFile(absPath(req.Dir, file))
			if err != nil {
				return nil, "", fmt.Errorf("Failed to open/read local data from file/application")
			}
			if v[0] == '<' {
				w.WriteField(name, string(data))
				continue
			}
			part, err := w.CreateFormFile(name, path.Base(file))
			if err != nil {
				return nil, "", err
			}
			part.Write(data)
		default:
			w.WriteField(name, v)
		}
	}
	if err := w.Close(); err != nil {
		return nil, "", err
	}
	return b.Bytes(), w.FormDataContentType(), nil
}

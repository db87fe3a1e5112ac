package expand

import (
	"strings"

	"github.com/wasmsand/wasmsand/vfs"
)

// TildeEnv is the shell state tilde expansion reads.
type TildeEnv interface {
	Get(name string) (string, bool) // a variable: HOME, PWD, OLDPWD
	DirStack(prefix string) string  // ~N, ~+N, ~-N: the directory stack's entry, or ""
	Home(user string) string        // ~user: the user's home, or ""
}

// Tilde expands a leading ~, ~user, ~+, ~- or ~N of s, up to the first of
// stops ("/", and ":" in assignments); whole says s is the entire word.
// It returns the expansion and the rest of s, or ok false to leave s as it
// is (a quoted prefix, an unknown user).
func Tilde(env TildeEnv, s string, whole bool, stops string) (value, rest string, ok bool) {
	end := strings.IndexAny(s, stops)
	if end < 0 {
		if !whole {
			return "", s, false
		}
		end = len(s)
	}
	prefix := s[1:end]
	if strings.ContainsAny(prefix, `\'"$`+"`") {
		return "", s, false
	}
	switch prefix {
	case "":
		home, ok := env.Get("HOME")
		if !ok {
			home = env.Home("user")
		}
		return home, s[end:], true
	case "+":
		v, _ := env.Get("PWD")
		return v, s[end:], true
	case "-":
		v, ok := env.Get("OLDPWD")
		if !ok {
			return "", s, false
		}
		return v, s[end:], true
	}
	if d := env.DirStack(prefix); d != "" {
		return d, s[end:], true
	}
	if h := env.Home(prefix); h != "" {
		return h, s[end:], true
	}
	return "", s, false
}

// TildeAfterColons expands ~ after each ':' of an assignment value.
func TildeAfterColons(env TildeEnv, s string) string {
	parts := strings.Split(s, ":")
	for i := 1; i < len(parts); i++ {
		if strings.HasPrefix(parts[i], "~") {
			if t, rest, ok := Tilde(env, parts[i], true, "/:"); ok {
				parts[i] = t + rest
			}
		}
	}
	return strings.Join(parts, ":")
}

// HomeOf looks a user's home up in the /etc/passwd of fsys ("" if none).
func HomeOf(fsys *vfs.FS, user string) string {
	data, err := fsys.ReadFile("/etc/passwd")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, ":")
		if len(f) >= 6 && f[0] == user {
			return f[5]
		}
	}
	return ""
}

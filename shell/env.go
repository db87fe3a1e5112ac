package shell

import "strings"

// UserID is the uid and gid of the sandbox user.
const UserID = 1000

// DefaultUmask is the file-creation mask a session starts with.
const DefaultUmask = 0o022

// DefaultEnv is the environment of a new sandbox. Nothing comes from the host.
func DefaultEnv() []string {
	return []string{
		"HOME=/home/user",
		"USER=user",
		"LOGNAME=user",
		"PATH=/usr/local/bin:/usr/bin:/bin",
		"LANG=C.UTF-8",
		"TZ=UTC",
		"SHELL=/bin/bash",
		"TERM=xterm-256color",
		"HOSTNAME=wasmsand",
		"PWD=/home/user",
	}
}

// Getenv is the last value of key in env (a command's environment), or "".
func Getenv(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

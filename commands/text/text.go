// Package text is column and less: text display commands written in Go for
// the sandbox's command table.
package text

import "github.com/wasmsand/wasmsand/shell"

// Commands are column and less.
func Commands() []shell.Command {
	return []shell.Command{
		{Name: "less", Run: less},
		{Name: "column", Run: column},
	}
}

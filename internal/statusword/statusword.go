// Package statusword compares the status words of the API's records: the
// provisioning API writes them in snake_case ("pending_create"), the backup
// and restore APIs in capitalised words ("In Progress"). Both the domain
// (api) and the colours (theme) read them through Norm.
package statusword

import "strings"

// Norm is a status word lower-cased, without spaces, underscores or
// hyphens: "In Progress", "in_progress" and "inprogress" are all
// "inprogress".
func Norm(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case ' ', '_', '-':
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
}

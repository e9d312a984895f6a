package kit

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
)

// CommandLines lays out a command meant to be copied (a connect line, a
// gsutil or aws command, a grant, a CHANGE MASTER call) in lines of at
// most w cells, breaking only between tokens: never inside a word, a path
// or a quoted string, so what a mouse selects is still the command. With
// shell, every line but the last ends in " \" and a shell reads them as
// one command; SQL reads a line break as a space. A token wider than w
// stays whole on a line of its own (the frame cuts it; the copy key
// copies it whole).
func CommandLines(cmd string, w int, shell bool) []string {
	cont := ""
	if shell {
		cont = " \\"
	}
	var lines []string
	cur := ""
	for _, tok := range commandTokens(cmd, shell) {
		switch {
		case cur == "":
			cur = tok
		case ansi.StringWidth(cur)+1+ansi.StringWidth(tok)+len(cont) <= w:
			cur += " " + tok
		default:
			lines = append(lines, cur+cont)
			cur = tok
		}
	}
	return append(lines, cur)
}

// commandTokens splits cmd at spaces outside quotes and escapes
// (api.Quoting: a shell's rules with shell, else SQL's).
func commandTokens(cmd string, shell bool) []string {
	var toks []string
	var b strings.Builder
	for r, quoted := range api.Quoting(cmd, shell) {
		if !quoted && (r == ' ' || r == '\t' || r == '\n') {
			if b.Len() > 0 {
				toks = append(toks, b.String())
				b.Reset()
			}
			continue
		}
		b.WriteRune(r)
	}
	if b.Len() > 0 {
		toks = append(toks, b.String())
	}
	return toks
}

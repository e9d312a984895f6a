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
// one command; SQL reads a line break as a space, and there a call's
// opening parenthesis may end a line too (sky.change_external_primary(
// then its arguments). A token wider than w stays whole on a line of its
// own (the frame cuts it, marked; the copy key copies it whole).
func CommandLines(cmd string, w int, shell bool) []string {
	cont := ""
	if shell {
		cont = " \\"
	}
	var lines []string
	cur := ""
	for _, tok := range commandTokens(cmd, shell) {
		sep := " "
		if tok.glued {
			sep = ""
		}
		switch {
		case cur == "":
			cur = tok.text
		case ansi.StringWidth(cur)+len(sep)+ansi.StringWidth(tok.text)+len(cont) <= w:
			cur += sep + tok.text
		default:
			lines = append(lines, cur+cont)
			cur = tok.text
		}
	}
	return append(lines, cur)
}

// commandToken is a token of a command; glued, it came right after the
// one before (no space between: an SQL call's arguments after its "(").
type commandToken struct {
	text  string
	glued bool
}

// commandTokens splits cmd at spaces outside quotes and escapes
// (api.Quoting: a shell's rules with shell, else SQL's), and in SQL after
// an opening parenthesis outside quotes.
func commandTokens(cmd string, shell bool) []commandToken {
	var toks []commandToken
	var b strings.Builder
	glued := false
	for r, quoted := range api.Quoting(cmd, shell) {
		if !quoted && (r == ' ' || r == '\t' || r == '\n') {
			if b.Len() > 0 {
				toks = append(toks, commandToken{b.String(), glued})
				b.Reset()
			}
			glued = false
			continue
		}
		b.WriteRune(r)
		if !shell && !quoted && r == '(' {
			toks = append(toks, commandToken{b.String(), glued})
			b.Reset()
			glued = true
		}
	}
	if b.Len() > 0 {
		toks = append(toks, commandToken{b.String(), glued})
	}
	return toks
}

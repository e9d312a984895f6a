package kit

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// nbHyphen is U+2011, a hyphen no line breaks at, as wide as "-".
const nbHyphen = "\u2011"

// KeepTogether is s with its spaces made ones no line breaks at (U+00A0,
// as wide): a cron expression in a sentence ("15 * * * *") stays on one
// line when Wrap wraps the sentence.
func KeepTogether(s string) string { return strings.ReplaceAll(s, " ", "\u00a0") }

// Wrap wraps s to limit cells at spaces (and at the other breakpoints
// given, a path's slashes), never inside a word that fits on a line: a
// hyphenated name (orders-prod, replica-west; ansi.Wrap alone breaks at
// every hyphen) or a path (gs://my-bucket/qa, never "gs://" at the end of
// one line and the rest on the next) moves to the next line whole. Only a
// word longer than a line breaks, at those breakpoints or its hyphens, or
// is cut.
func Wrap(s string, limit int, breakpoints ...string) string {
	bp := " "
	if len(breakpoints) > 0 {
		bp = strings.Join(breakpoints, "")
	}
	// in a word that fits on a line, each breakpoint but the space (and
	// the hyphen) is a same-width rune no line breaks at, put back after
	var keep, back []string
	for i, r := range strings.ReplaceAll(bp, " ", "") + "-" {
		ph := string(rune(0xE000 + i)) // private use: one cell, no break
		if r == '-' {
			ph = nbHyphen
		}
		keep = append(keep, string(r), ph)
		back = append(back, ph, string(r))
	}
	protect := strings.NewReplacer(keep...)
	words := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\n' })
	pairs := make([]string, 0, 2*len(words))
	for _, w := range words {
		if ansi.StringWidth(w) <= limit {
			if p := protect.Replace(w); p != w {
				pairs = append(pairs, w, p)
			}
		}
	}
	kept := s
	if len(pairs) > 0 {
		kept = strings.NewReplacer(pairs...).Replace(s)
	}
	return strings.NewReplacer(back...).Replace(ansi.Wrap(kept, limit, bp))
}

// WrapAfter wraps s to w cells only after the runes in breaks (a backup
// key's colons): as many whole parts on a line as fit; a part wider than
// a line is broken inside, and only then. Unlike Wrap, a hyphen is no
// break.
func WrapAfter(s string, w int, breaks string) string {
	var lines []string
	cur := ""
	for s != "" {
		part := s
		if i := strings.IndexAny(s, breaks); i >= 0 {
			_, n := utf8.DecodeRuneInString(s[i:])
			part = s[:i+n]
		}
		s = s[len(part):]
		switch {
		case ansi.StringWidth(cur+part) <= w:
			cur += part
		case ansi.StringWidth(part) <= w:
			lines, cur = append(lines, cur), part
		default:
			hard := strings.Split(ansi.Hardwrap(cur+part, w, true), "\n")
			lines, cur = append(lines, hard[:len(hard)-1]...), hard[len(hard)-1]
		}
	}
	return strings.Join(append(lines, cur), "\n")
}

// Count is n with the word that goes with it: "1 entry", "3 entries".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// Or is s, or def when s is empty or only white space.
func Or(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// OrDash is s, or "-" when there is nothing to show.
func OrDash(s string) string { return Or(s, "-") }

// TitleLines is a step's title in w cells: one line when it fits, else two,
// the note in parentheses whole on the second when it can be ("(its data
// will be erased)" is never the part cut).
func TitleLines(title string, w int) []string {
	if ansi.StringWidth(title) <= w {
		return []string{title}
	}
	if at := strings.LastIndex(title, " ("); at > 0 && ansi.StringWidth(title[:at]) <= w && ansi.StringWidth(title[at+1:]) <= w {
		return []string{title[:at], title[at+1:]}
	}
	tl := strings.Split(Wrap(title, max(10, w)), "\n")
	return []string{tl[0], strings.Join(tl[1:], " ")}
}

// Said wraps a line said of a form, a step or a review to w cells (Wrap),
// indented one; a message that starts "! " (a warning, a refusal) goes on
// under its words, not under the "!", so a wrapped refusal still reads as
// one message.
func Said(text string, w int) string {
	hang := " "
	if strings.HasPrefix(text, "! ") {
		hang = "   "
	}
	lines := strings.Split(Wrap(text, max(10, w-len(hang))), "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = " " + lines[i]
		} else {
			lines[i] = hang + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}

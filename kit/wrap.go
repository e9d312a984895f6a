package kit

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// nbHyphen is U+2011, a hyphen no line breaks at, as wide as "-".
const nbHyphen = "\u2011"

// Wrap wraps s to limit cells at spaces (and at the other breakpoints
// given), never inside a hyphenated name that fits on a line: orders-prod,
// replica-west and s3://acme-db-exports stay whole (ansi.Wrap alone breaks
// at every hyphen). A longer word still breaks at its hyphens, or is cut.
func Wrap(s string, limit int, breakpoints ...string) string {
	bp := " "
	if len(breakpoints) > 0 {
		bp = strings.Join(breakpoints, "")
	}
	if !strings.Contains(s, "-") {
		return ansi.Wrap(s, limit, bp)
	}
	words := strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(bp, r) || r == '\n' })
	pairs := make([]string, 0, 2*len(words))
	for _, w := range words {
		// a hyphen inside a word, not a dash standing alone or at an end
		if strings.Contains(strings.Trim(w, "-"), "-") && ansi.StringWidth(w) <= limit {
			pairs = append(pairs, w, strings.ReplaceAll(w, "-", nbHyphen))
		}
	}
	kept := strings.NewReplacer(pairs...).Replace(s)
	return strings.ReplaceAll(ansi.Wrap(kept, limit, bp), nbHyphen, "-")
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

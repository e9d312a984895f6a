package api

import (
	"iter"
	"strings"
	"unicode/utf8"
)

// CleanText makes a string from the API safe to show, copy or print: escape
// sequences (CSI, OSC, DCS, APC, PM, SOS and two-byte ESC forms, in their
// 7-bit and C1 spellings) are removed with their payload, other C0 and C1
// controls and DEL are removed, tabs, carriage returns and line feeds become
// one space, bidirectional controls are removed, and invalid UTF-8 becomes
// U+FFFD. Printable text, including any script, is kept as it is.
func CleanText(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		switch {
		case r == 0x1b: // ESC
			i = skipEscape(s, i+1)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 OSC, DCS, SOS, PM, APC
			i = skipString(s, i+size)
			continue
		case r == '\t' || r == '\n' || r == '\r':
			if !space {
				b.WriteByte(' ')
				space = true
			}
			i += size
			continue
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || isBidi(r):
			i += size
			continue
		}
		space = r == ' '
		b.WriteString(s[i : i+size])
		i += size
	}
	return b.String()
}

func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || c >= 0x80 {
			return false
		}
	}
	return true
}

func isBidi(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// skipEscape skips what follows an ESC at i and returns the index after it.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// intermediates (0x20–0x2f) then one final byte
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f: // parameters and intermediates
			i++
		case c >= 0x40 && c <= 0x7e: // final byte
			return i + 1
		default: // malformed: the main loop deals with this byte
			return i
		}
	}
	return i
}

// skipString skips a control string up to and including its terminator:
// BEL, ESC \, or C1 ST (U+009C).
func skipString(s string, i int) int {
	for i < len(s) {
		if s[i] == 0x07 {
			return i + 1
		}
		if s[i] == 0x1b {
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0x9c {
			return i + size
		}
		i += size
	}
	return i
}

// Quoting walks a command or a statement rune by rune and tells of each
// whether it belongs to a quoted string ('…', "…", `…`, the quotes
// themselves included) or to a backslash escape (the backslash and the
// character it escapes). A backslash escapes as the language says: a
// shell's outside quotes and inside "…" but not inside '…' (with shell);
// SQL's inside its quoted strings only.
func Quoting(s string, shell bool) iter.Seq2[rune, bool] {
	return func(yield func(rune, bool) bool) {
		var quote rune
		escaped := false
		for _, r := range s {
			quoted := true
			switch {
			case escaped:
				escaped = false
			case r == '\\' && (shell && quote != '\'' || !shell && quote != 0):
				escaped = true
			case quote != 0:
				if r == quote {
					quote = 0
				}
			case r == '\'' || r == '"' || r == '`':
				quote = r
			default:
				quoted = false
			}
			if !yield(r, quoted) {
				return
			}
		}
	}
}

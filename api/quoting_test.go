package api

import "testing"

// The parts of a statement or a command outside quotes and escapes are
// what a separator is looked for in: a semicolon or a space inside a
// password is not one.
func TestQuotingOutside(t *testing.T) {
	outside := func(s string, shell bool) string {
		var b []rune
		for r, quoted := range Quoting(s, shell) {
			if !quoted {
				b = append(b, r)
			}
		}
		return string(b)
	}
	for _, c := range []struct {
		in    string
		shell bool
		want  string
	}{
		{`GRANT ALL ON db.* TO 'u'@'%' IDENTIFIED BY 'p;w'`, false, `GRANT ALL ON db.* TO @ IDENTIFIED BY `},
		{`SELECT 'it\'s;' ; x`, false, `SELECT  ; x`},
		{"SELECT `a;b`, \"c;d\"", false, "SELECT , "},
		{`a\ b`, false, `a\ b`}, // SQL: a backslash outside quotes is a character
		{`a\ b`, true, `ab`},    // shell: it escapes the space
		{`echo 'a\' b`, true, `echo  b`},
		{`echo "a\" b" c`, true, `echo  c`},
	} {
		if got := outside(c.in, c.shell); got != c.want {
			t.Errorf("Quoting(%q, shell=%v): outside quotes %q, want %q", c.in, c.shell, got, c.want)
		}
	}
}

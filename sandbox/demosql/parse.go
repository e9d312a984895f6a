package demosql

import (
	"regexp"
	"strconv"
	"strings"
)

// Call is a parsed CALL sky.<proc>(args…).
type Call struct {
	Proc string
	Args []any // string, int64, bool or nil
}

type selectConst struct {
	col string
	val any
}

// The schema of the procedures, as on the live service.
const Schema = "sky"

var (
	callRe  = regexp.MustCompile(`(?is)^CALL\s+(?:` + "`?" + `(\w+)` + "`?" + `\.)?` + "`?" + `(\w+)` + "`?" + `\s*(?:\((.*)\))?$`)
	grantRe = regexp.MustCompile(`(?is)^GRANT\s+REPLICATION\s+(?:SLAVE|REPLICA)\s+ON\s+\*\.\*\s+TO\s+'((?:[^'\\]|\\.)*)'@'((?:[^'\\]|\\.)*)'\s+IDENTIFIED\s+BY\s+'((?:[^'\\]|\\.|'')*)'$`)
)

// Parse reads one statement of the few the endpoint runs: CALL of a sky
// procedure, a replication GRANT, and the constant SELECTs that clients
// send on connect.
func Parse(q string) (any, error) {
	q = strings.TrimSpace(q)
	q = strings.TrimSpace(strings.TrimSuffix(q, ";"))
	lower := strings.ToLower(q)
	switch {
	case lower == "select 1":
		return selectConst{"1", int64(1)}, nil
	case strings.HasPrefix(lower, "select @@version_comment"):
		return selectConst{"@@version_comment", "skytui sandbox (MySQL protocol endpoint)"}, nil
	case lower == "select @@version" || lower == "select version()":
		return selectConst{"@@version", "10.11.9-MariaDB-sandbox"}, nil
	}
	if m := callRe.FindStringSubmatch(q); m != nil {
		schema, proc := strings.ToLower(m[1]), strings.ToLower(m[2])
		if schema != Schema {
			name := proc
			if m[1] != "" {
				name = m[1] + "." + m[2]
			}
			return nil, &Error{Code: 1305, State: "42000", Msg: "PROCEDURE " + name + " does not exist"}
		}
		args, err := parseArgs(m[3])
		if err != nil {
			return nil, err
		}
		return Call{Proc: proc, Args: args}, nil
	}
	if m := grantRe.FindStringSubmatch(q); m != nil {
		return Grant{User: unescape(m[1]), Host: unescape(m[2]), Password: unescape(m[3]), Statement: q}, nil
	}
	return nil, &Error{Code: 1064, State: "42000", Msg: "the sandbox endpoint runs only CALL " + Schema + ".<procedure>(…) and GRANT REPLICATION SLAVE ON *.* TO 'user'@'host' IDENTIFIED BY '…'"}
}

func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '0':
				b.WriteByte(0)
			default:
				b.WriteByte(s[i])
			}
		case c == '\'' && i+1 < len(s) && s[i+1] == '\'':
			b.WriteByte('\'')
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// parseArgs splits a literal argument list: quoted strings, numbers,
// TRUE/FALSE and NULL.
func parseArgs(s string) ([]any, error) {
	var out []any
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	i := 0
	bad := func() error {
		return &Error{Code: 1064, State: "42000", Msg: "cannot read the procedure arguments near: " + truncate(s[i:], 40)}
	}
	for i < len(s) {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i >= len(s) {
			return nil, bad()
		}
		switch c := s[i]; {
		case c == '\'' || c == '"':
			j := i + 1
			var raw strings.Builder
			closed := false
			for j < len(s) {
				if s[j] == '\\' && j+1 < len(s) {
					raw.WriteByte(s[j])
					raw.WriteByte(s[j+1])
					j += 2
					continue
				}
				if s[j] == c {
					if j+1 < len(s) && s[j+1] == c {
						raw.WriteString("''")
						j += 2
						continue
					}
					closed = true
					j++
					break
				}
				raw.WriteByte(s[j])
				j++
			}
			if !closed {
				return nil, bad()
			}
			out = append(out, unescape(raw.String()))
			i = j
		default:
			j := i
			for j < len(s) && s[j] != ',' {
				j++
			}
			tok := strings.TrimSpace(s[i:j])
			switch strings.ToLower(tok) {
			case "true":
				out = append(out, true)
			case "false":
				out = append(out, false)
			case "null":
				out = append(out, nil)
			default:
				n, err := strconv.ParseInt(tok, 10, 64)
				if err != nil {
					return nil, bad()
				}
				out = append(out, n)
			}
			i = j
		}
		for i < len(s) && s[i] == ' ' {
			i++
		}
		if i < len(s) {
			if s[i] != ',' {
				return nil, bad()
			}
			i++
		}
	}
	return out, nil
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

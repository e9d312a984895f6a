package api

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// FuzzCleanDecodeRenderCopy: whatever text the API puts in a service, a
// restore, the credentials or an error body, what the client decodes,
// what the terminal renderer draws of it and the clipboard payload a copy
// sends (OSC 52) carry no control character, no escape sequence and no
// bidirectional control. The rendering is lipgloss and x/ansi as tui/kit
// uses them (kit imports api, so it is done here directly); the renderer's
// own SGR styling is stripped before the check. The copy sequence is built
// with ansi.SetSystemClipboard and ansi.TmuxPassthrough, as
// kit.CopySequence does.
func FuzzCleanDecodeRenderCopy(f *testing.F) {
	for _, s := range [][4]string{
		{"orders-prod", "us-east-1", "Restore has succeeded!", "db.example.com"},
		{"a\x1b]0; touch FILE;\x07b", "\x1b[2J\x1b[H", "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\", "\x1b]52;c;cm0gLXJmIH4K\x07"},
		{"\u202eexe.txt", "\u009b31m\u009d0;t\u009c", "line1\r\nline2\tcol", "\x1bP$q\"p\x1b\\\x00\x7f\b"},
		{"\xff\xfe\xc2", "\xc2\x9b2J", "\x1b", "\x1b]"},
		{strings.Repeat("x", 1000), "\u2066\u2069\u200e\u061c", "\u0085\u008d\u0090", "ok"},
	} {
		f.Add(s[0], s[1], s[2], s[3])
	}
	f.Fuzz(func(t *testing.T, a, b, c, d string) {
		for _, enc := range []func(string) string{jsonQuote, rawQuote} {
			svc := `{"id":"dbtgf00001","name":` + enc(a) + `,"status":"ready","region":` + enc(b) + `,"version":` + enc(c) +
				`,"fqdn":` + enc(d) + `,"errors":[` + enc(c) + `],"endpoints":[{"name":` + enc(a) + `,"ports":[{"name":` + enc(b) +
				`,"port":3306}],"allow_list":[{"ip":"203.0.113.7/32","comment":` + enc(d) + `}]}],"tags":{` + enc(a) + `:` + enc(b) + `}}`
			svcs, _, err := decodeList[Service]([]byte(`{"services":[`+svc+`]}`), "services")
			if err == nil {
				for _, s := range svcs {
					for _, v := range []string{s.ID, s.Name, s.Status, s.Region, s.Version, s.FQDN} {
						checkChain(t, "service", v)
					}
					for _, v := range s.Errors {
						checkChain(t, "service error", v)
					}
					for _, ep := range s.Endpoints {
						checkChain(t, "endpoint", ep.Name)
						for _, al := range ep.AllowList {
							checkChain(t, "allow-list comment", al.Comment)
						}
						for _, p := range ep.Ports {
							checkChain(t, "port", p.Name)
						}
					}
					for _, u := range s.Unread {
						checkChain(t, "unread path", u)
					}
				}
			}
			rst := `[{"id":4,"service_id":` + enc(a) + `,"service_name":` + enc(a) + `,"status":` + enc(b) + `,"message":` + enc(c) +
				`,"bucket":` + enc(d) + `,"key":` + enc(d) + `,"created_at":` + enc(b) + `}]`
			if r, err := decodeOne[Restore]([]byte(rst)); err == nil {
				for _, v := range []string{r.ServiceID, r.ServiceName, r.Status, r.Message, r.Bucket, r.Key, r.CreatedAt.Raw} {
					checkChain(t, "restore", v)
				}
			}
			bk := `{"backups":[{"id":` + enc(d) + `,"service_name":` + enc(a) + `,"type":` + enc(b) + `,"status":` + enc(c) +
				`,"binlog_gtid_position":` + enc(d) + `,"binlog_file":` + enc(a) + `,"binlog_position":` + enc(b) + `}]}`
			if bs, _, err := decodeList[Backup]([]byte(bk), "backups"); err == nil {
				for _, x := range bs {
					for _, v := range []string{x.Key, x.ServiceName, x.Type, x.Status, x.BinlogGTIDPosition, x.BinlogFile, string(x.BinlogPosition)} {
						checkChain(t, "backup", v)
					}
				}
			}
			var cr Credentials
			if err := unmarshalLenient([]byte(`{"username":`+enc(a)+`,"password":`+enc(b)+`,"host":`+enc(c)+`}`), &cr); err == nil {
				for _, v := range []string{cr.Username, cr.Password, cr.Host} {
					checkChain(t, "credentials", v)
				}
			}
			body := `{"code":400,"errors":[{"error":` + enc(a) + `,"message":` + enc(b) + `,"solution":` + enc(c) + `,"location":` + enc(d) +
				`}],"trace_id":` + enc(d) + `,"error":` + enc(a) + `,"timestamp":` + enc(c) + `}`
			for _, bd := range []string{body, a, `{"error":` + enc(b) + `}`} {
				e := ErrorFromResponse("POST", "/backup/v1/restores", 400, nil, []byte(bd))
				for _, v := range []string{e.Message, e.Solution, e.Location, e.TraceID} {
					checkChain(t, "error field", v)
				}
				checkChain(t, "error text", e.Error())
			}
			// a transport or decoding error's text from the server
			te := &Error{Method: "GET", Path: "/x", Err: fmt.Errorf("malformed response: %s", a)}
			checkChain(t, "transport error text", te.Error())
		}
	})
}

// jsonQuote is encoding/json's quoting (controls escaped, invalid UTF-8
// made U+FFFD).
func jsonQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// rawQuote escapes only what JSON requires (quote, backslash, C0), so
// invalid UTF-8, C1 and DEL reach the decoder as raw bytes.
func rawQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// checkChain checks a decoded value, its rendering and its copy.
func checkChain(t *testing.T, what, v string) {
	t.Helper()
	if bad := dirty(v, false); bad != "" {
		t.Fatalf("%s: decoded value %q holds %s", what, v, bad)
	}
	for _, r := range renderings(v) {
		if bad := dirty(stripSGR(r), true); bad != "" {
			t.Fatalf("%s: rendering of %q holds %s: %q", what, v, bad, r)
		}
	}
	for _, tmux := range []bool{false, true} {
		seq := ansi.SetSystemClipboard(v)
		if tmux {
			seq = ansi.TmuxPassthrough(seq)
		}
		payload, err := osc52Payload(seq)
		if err != nil {
			t.Fatalf("%s: copy sequence %q: %v", what, seq, err)
		}
		if payload != v {
			t.Fatalf("%s: the clipboard gets %q, not the value %q", what, payload, v)
		}
		if bad := dirty(payload, false); bad != "" {
			t.Fatalf("%s: clipboard payload %q holds %s", what, payload, bad)
		}
	}
}

// renderings draws v as the screens do: truncated in a table cell, wrapped
// in a detail pane, bold in a bordered, coloured, padded box.
func renderings(v string) []string {
	st := lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("#ff5f87")).
		Border(lipgloss.RoundedBorder()).BorderForeground(lipgloss.Color("#5fafff")).Padding(0, 1).Width(40)
	return []string{
		ansi.Truncate(v, 20, "…"),
		ansi.Wrap(v, 36, " ,/"),
		st.Render(lipgloss.NewStyle().Width(36).Render("Type " + lipgloss.NewStyle().Bold(true).Render(v) + " to confirm")),
		lipgloss.JoinHorizontal(lipgloss.Top, lipgloss.NewStyle().Reverse(true).Render("[ No ]"), "  ", v),
	}
}

var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

func stripSGR(s string) string { return sgr.ReplaceAllString(s, "") }

// dirty names the first control character, escape, bidi control or
// invalid UTF-8 in s ("" when clean); lines allows line feeds (between a
// rendering's lines).
func dirty(s string, lines bool) string {
	if !utf8.ValidString(s) {
		return "invalid UTF-8"
	}
	for _, r := range s {
		switch {
		case r == '\n' && lines:
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("control %U", r)
		case r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("C1 control %U", r)
		case isBidi(r):
			return fmt.Sprintf("bidi control %U", r)
		}
	}
	return ""
}

// osc52Payload reads the clipboard text out of an OSC 52 sequence, plain
// or inside tmux's passthrough, checking that the payload cannot end the
// sequence early: exactly the sequence's own escapes are there.
func osc52Payload(seq string) (string, error) {
	inner := seq
	if rest, ok := strings.CutPrefix(seq, "\x1bPtmux;"); ok {
		body, ok := strings.CutSuffix(rest, "\x1b\\")
		if !ok {
			return "", fmt.Errorf("tmux passthrough not terminated")
		}
		inner = strings.ReplaceAll(body, "\x1b\x1b", "\x1b")
	}
	b64, ok := strings.CutPrefix(inner, "\x1b]52;c;")
	if !ok {
		return "", fmt.Errorf("not OSC 52")
	}
	b64, ok = strings.CutSuffix(b64, "\a")
	if !ok {
		return "", fmt.Errorf("OSC 52 not terminated by BEL")
	}
	if strings.ContainsAny(b64, "\x1b\a\x9c") {
		return "", fmt.Errorf("the payload ends the sequence early")
	}
	raw, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return "", err
	}
	return string(raw), nil
}

// A server's bytes in a transport error (a malformed header line, a
// malformed status line) reach no terminal raw either.
func TestTransportErrorTextIsClean(t *testing.T) {
	for _, answer := range []string{
		"HTTP/1.1 200 OK\r\nX-\x1b]0;title\a: y\r\nContent-Length: 2\r\n\r\n{}",
		"HTTP/1.1 2\x1b[2J0 OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\nX-Trace-Id: \x1b]8;;http://e/\x1b\\\u202e\r\nContent-Length: 2\r\n\r\n[]",
		"\x1b]0;title\a\u009b2J garbage\r\n\r\n",
	} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				go func() {
					defer conn.Close()
					r := bufio.NewReader(conn)
					for {
						l, err := r.ReadString('\n')
						if err != nil || l == "\r\n" {
							break
						}
					}
					_, _ = conn.Write([]byte(answer))
				}()
			}
		}()
		c, err := New(Config{BaseURL: "http://" + ln.Addr().String(), APIKey: "k", MaxRetries: -1,
			Sleep: func(context.Context, time.Duration) error { return nil }})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListServices(context.Background())
		ln.Close()
		if err == nil {
			continue
		}
		if bad := dirty(err.Error(), false); bad != "" {
			t.Errorf("answer %q: error text %q holds %s", answer, err.Error(), bad)
		}
	}
}

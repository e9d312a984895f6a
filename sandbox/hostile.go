package sandbox

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
)

// Hostile mode (Options.Hostile, `skytui sandbox --hostile`): the demo
// data, the answers' text fields and every error body carry terminal
// control sequences, bidirectional controls, C1 controls, newlines and
// tabs, and one service has a 5,000-character name. IDs, statuses, keys,
// numbers and times stay as they are, so every screen still works; the
// answers stay valid JSON. It exists to prove that nothing the API sends
// reaches the terminal, the clipboard or stderr as a control sequence.
//
// Every injected sequence is written right after a marker, "HOSTILE-" and
// a tag (HostileSeqs), so a scan of a terminal's raw output can tell an
// injected sequence that got through (the marker followed by it) from the
// renderer's own.

// HostileLongName is the 5,000-character name of the extra service
// hostile mode adds (before the sequences every name gets).
var HostileLongName = hostileLong()

// HostileLongPrefix starts HostileLongName.
const HostileLongPrefix = "long-name-"

func hostileLong() string {
	var b strings.Builder
	b.WriteString(HostileLongPrefix)
	for b.Len() < 5000 {
		b.WriteString("abcdefghij")
	}
	return b.String()[:5000]
}

// HostileSeq is one injected sequence and its marker tag.
type HostileSeq struct{ Tag, Seq string }

// HostileMarker is the text right before every injected sequence.
func HostileMarker(tag string) string { return "HOSTILE-" + tag }

// HostileSeqs are the sequences injected after each text value, in order.
var HostileSeqs = []HostileSeq{
	{"T0", "\x1b]0; touch /tmp/skytui-hostile-pwned;\a"},                                   // OSC 0: window title
	{"T2", "\x1b]2;pwned title\x1b\\"},                                                     // OSC 2: window title, ST
	{"L8", "\x1b]8;;https://evil.example/\x1b\\link\x1b]8;;\x1b\\"},                        // OSC 8 hyperlink
	{"CLR", "\x1b[2J\x1b[3J\x1b[H"},                                                        // clear screen and scrollback
	{"C52", "\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte("rm -rf ~\n")) + "\a"}, // OSC 52 clipboard write
	{"BIDI", "\u202etxt.exe"},                                                              // right-to-left override
	{"C1", "\u009b2J\u009d0;c1 title\u009c"},                                               // C1 CSI, C1 OSC
	{"NL", "\r\nline2\tcol"},                                                               // CR LF TAB
	{"DCS", "\x1bP$q\"p\x1b\\\x00\x7f\b"},                                                  // DCS, NUL, DEL, BS
}

// hostileText appends every injected sequence, each after its marker.
func hostileText(v string) string {
	var b strings.Builder
	b.WriteString(v)
	b.WriteByte(' ')
	for _, s := range HostileSeqs {
		b.WriteString(HostileMarker(s.Tag))
		b.WriteString(s.Seq)
	}
	return b.String()
}

// HostileHost is the host the credentials answer carries in hostile mode.
var HostileHost = "db.example.com" + HostileMarker("T0") + "\x1b]0; touch FILE;\a"

// loadHostile adds, after the demo data, a ready service with the
// 5,000-character name, a full allow list (an add is refused, and the
// refusal's body is spoiled too) and backups.
func loadHostile(st *store, now time.Time) {
	created := now.Add(-3 * 24 * time.Hour)
	st.target = st.now
	allow := []api.AllowListEntry{{IP: "203.0.113.66/32", Comment: "hostile"}, {IP: "198.51.100.66/32", Comment: "hostile 2"}}
	for i := 1; len(allow) < allowListLimit("aws"); i++ {
		allow = append(allow, api.AllowListEntry{IP: fmt.Sprintf("192.0.2.%d/32", i), Comment: fmt.Sprintf("hostile %d", i+2)})
	}
	s := st.addService(api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single", Provider: "aws", Region: "us-east-1",
		Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: HostileLongName, SSLEnabled: true,
		AllowList: allow}, created)
	s.dataBytes, s.txPerSec, s.dataAt = 2*gb, 0.2, st.now
	st.finishLaunch(s, created.Add(LaunchDuration))
	s.nextNightly = st.nextNightlyAfter(st.now)
	s.errors = []string{"a warning about " + HostileLongName[:40]}
}

// hostileKeys are the text fields a hostile answer spoils, wherever they
// are: names, regions, versions, messages, backup fields, comments,
// credentials.
var hostileKeys = map[string]bool{
	"name": true, "service_name": true, "region": true, "version": true, "message": true,
	"binlog_file": true, "binlog_gtid_position": true, "bucket": true, "server_pod": true, "comment": true,
	"username": true, "password": true, "solution": true, "exception": true, "error": true, "trace_id": true,
}

// hostileAnswer spoils a JSON answer (a 2xx body or an error body). The
// option listings (providers, regions, sizes, …) are left alone: their
// names are what a create request sends back.
func hostileAnswer(path string, data []byte) []byte {
	if !hostilePath(path) {
		return data
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return data
	}
	v = hostileValue(v, "")
	out, err := json.Marshal(v)
	if err != nil {
		return data
	}
	return out
}

// hostilePath: the services, their security answers, backups, schedules
// and restores; not the option listings.
func hostilePath(path string) bool {
	if path == "error" {
		return true
	}
	for _, p := range []string{provPrefix, backupPrefix, liveBackupPrefix} {
		if rest, ok := strings.CutPrefix(path, p); ok {
			return strings.HasPrefix(rest, "/services") || strings.HasPrefix(rest, "/backups") || strings.HasPrefix(rest, "/restores")
		}
	}
	return false
}

func hostileValue(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		if key == "" && x["host"] != nil && x["password"] != nil {
			x["host"] = HostileHost
		}
		for k, e := range x {
			if k == "name" && x["id"] == nil {
				continue // an endpoint's, a port's or an allow-list group's name is looked up
			}
			x[k] = hostileValue(e, k)
		}
		if _, ok := x["status"]; ok && x["id"] != nil {
			// an unknown field with a hostile name on each record
			x[HostileMarker("KEY")+"\x1b]0;key title\a"] = hostileText("unknown field")
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = hostileValue(e, key)
		}
		return x
	case string:
		if hostileKeys[key] || key == "errors" {
			return hostileText(x)
		}
		return x
	}
	return v
}

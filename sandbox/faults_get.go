// Faults that replace the answer of a GET: empty, null, endless pages and
// huge bodies.

package sandbox

import (
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
)

// listShapes are the listings (route patterns without their prefix) that
// empty and null apply to, with the shape of their endless answer: the
// key of the envelope, "services" for the token-paged service listing,
// or "" for a listing that is not paged (endless does not apply).
var listShapes = map[string]string{
	"/services":                            "services",
	"/services/{id}/security/allowlist":    "",
	"/providers":                           "",
	"/regions":                             "",
	"/service-types":                       "",
	"/topologies":                          "",
	"/topologies/{topology}/storage-sizes": "",
	"/sizes":                               "",
	"/versions":                            "",
	"/backups":                             "backups",
	"/backups/schedules":                   "schedules",
	"/backups/status":                      "",
	"/restores":                            "restores",
}

const (
	// endlessPageItems is the number of items of every endless page.
	endlessPageItems = 1000
	// endlessPagesCount is the pages_count an endless envelope claims.
	endlessPagesCount = 1_000_000_000
	// endlessChainTTL is how long an envelope listing answered endless
	// stays so for its next pages.
	endlessChainTTL = 30 * time.Second
	// endlessTokenPrefix starts (base64url-encoded) the page tokens of an
	// endless service listing.
	endlessTokenPrefix = "svc:endless:"
	// HugeBodySize is the size of the answer of the huge fault: just over
	// the 32 MiB a client should read at most.
	HugeBodySize = 32<<20 + 1<<10
)

// hugeBlock is the padding the huge answers are streamed from.
var hugeBlock = []byte(strings.Repeat("x", 64<<10))

// serveGETFault answers a GET with the empty, null, endless or huge fault
// when kind (the request's draw) is one of them and the route takes it, or
// when the request asks for the next page of a listing answered endless.
// It returns the status written, or 0 when the request is still to be
// handled.
func (s *Server) serveGETFault(w http.ResponseWriter, r *http.Request, rt *route, kind faultKind) int {
	if r.Method != http.MethodGet || rt == nil {
		return 0
	}
	shape, isList := listShapes[strings.TrimPrefix(rt.pattern, rt.prefix)]
	q := r.URL.Query()
	page := 0 // the endless page to answer (0: none)
	if shape != "" {
		page = s.faults.endlessNext(shape, r.URL.Path, q)
	}
	switch {
	case page > 0:
		kind = faultEndless
	case kind == faultHuge:
	case !isList || !kind.onGET():
		return 0
	case kind == faultEndless:
		if shape == "" {
			return 0
		}
		page = 1
	}
	s.countFault(kind)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	switch kind {
	case faultEmpty:
		h.Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
	case faultNull:
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("null"))
	case faultHuge:
		writeHuge(w, isList)
	case faultEndless:
		if shape == "services" {
			h.Set("X-SkySQL-Page-Token-Next", base64.RawURLEncoding.EncodeToString([]byte(endlessTokenPrefix+strconv.Itoa(page+1))))
		} else {
			s.faults.endlessSeen(r.URL.Path, q)
		}
		w.WriteHeader(http.StatusOK)
		w.Write(endlessPage(shape, page, q.Get("service_id")))
	}
	return http.StatusOK
}

// endlessKey names a listing independent of its page.
func endlessKey(path string, q url.Values) string {
	q2 := url.Values{}
	for k, v := range q {
		if k != "page" {
			q2[k] = v
		}
	}
	return path + "?" + q2.Encode()
}

// endlessNext returns the page of an endless listing the request asks
// for, or 0 when it asks for none.
func (fi *faultInjector) endlessNext(shape, path string, q url.Values) int {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if shape == "services" {
		raw, err := base64.RawURLEncoding.DecodeString(q.Get("page_token"))
		if err != nil || !strings.HasPrefix(string(raw), endlessTokenPrefix) {
			return 0
		}
		n, err := strconv.Atoi(strings.TrimPrefix(string(raw), endlessTokenPrefix))
		if err != nil || n < 1 {
			return 0
		}
		return n
	}
	if len(fi.endless) == 0 {
		return 0
	}
	key := endlessKey(path, q)
	n, err := strconv.Atoi(q.Get("page"))
	if err != nil || n < 2 {
		delete(fi.endless, key) // a new listing starts
		return 0
	}
	if t, ok := fi.endless[key]; ok && time.Since(t) < endlessChainTTL {
		return n
	}
	return 0
}

// endlessSeen records an envelope listing answered endless, so that its
// next pages are too.
func (fi *faultInjector) endlessSeen(path string, q url.Values) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	now := time.Now()
	if fi.endless == nil {
		fi.endless = map[string]time.Time{}
	}
	for k, t := range fi.endless {
		if now.Sub(t) >= endlessChainTTL {
			delete(fi.endless, k)
		}
	}
	fi.endless[endlessKey(path, q)] = now
}

// endlessPage is page n of an endless listing: endlessPageItems generated
// items, as a bare array of services or an envelope claiming
// endlessPagesCount pages.
func endlessPage(shape string, n int, serviceID string) []byte {
	if api.ValidateServiceID(serviceID) != nil {
		serviceID = "dbendless0000000"
	}
	b := make([]byte, 0, endlessPageItems*160)
	if shape != "services" {
		b = append(b, `{"`+shape+`":`...)
	}
	b = append(b, '[')
	for i := range endlessPageItems {
		id := int64(n-1)*endlessPageItems + int64(i) + 1
		if i > 0 {
			b = append(b, ',')
		}
		switch shape {
		case "services":
			b = fmt.Appendf(b, `{"id":"dbendless%07d","name":"endless-%d","status":"ready","service_type":"transactional","topology":"es-single","provider":"aws","region":"us-east-1","architecture":"amd64","size":"sky-2x8","nodes":1,"fqdn":"","ssl_enabled":true}`, id, id)
		case "backups":
			b = fmt.Appendf(b, `{"id":"endless-%d","service_id":%q,"type":"full","status":"Succeeded","storage_bytes":0}`, id, serviceID)
		case "schedules":
			b = fmt.Appendf(b, `{"id":%d,"service_id":%q,"type":"full","schedule":"once","status":"Succeeded","suspended":false}`, id, serviceID)
		default: // restores
			b = fmt.Appendf(b, `{"id":%d,"service_id":%q,"status":"Succeeded"}`, id, serviceID)
		}
	}
	b = append(b, ']')
	if shape != "services" {
		b = fmt.Appendf(b, `,"%s_count":%d,"pages_count":%d}`, shape, int64(endlessPagesCount)*endlessPageItems, endlessPagesCount)
	}
	return b
}

// writeHuge streams a valid JSON answer of HugeBodySize bytes: one record
// (in an array when list) whose name is all the padding.
func writeHuge(w http.ResponseWriter, list bool) {
	prefix, suffix := `{"id":"dbhuge000000001","name":"`, `"}`
	if list {
		prefix, suffix = "["+prefix, suffix+"]"
	}
	w.Header().Set("Content-Length", strconv.Itoa(HugeBodySize))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write([]byte(prefix)); err != nil {
		return
	}
	for pad := HugeBodySize - len(prefix) - len(suffix); pad > 0; {
		n := min(pad, len(hugeBlock))
		if _, err := w.Write(hugeBlock[:n]); err != nil {
			return // the client stopped reading
		}
		pad -= n
	}
	w.Write([]byte(suffix))
}

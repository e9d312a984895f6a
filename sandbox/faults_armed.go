// Armed faults: a change the store carries out, then its answer spoiled
// (unreadable or dropped), for one route and a fixed number of times.

package sandbox

import (
	"fmt"
	"strings"
)

// AfterFault is what an armed fault does to the answer of a change the
// store has carried out.
type AfterFault string

const (
	// AnswerUnreadable answers a 2xx status with a body that is not the
	// JSON answer (ArmedFault.Body, or the real answer cut short).
	AnswerUnreadable AfterFault = "unreadable"
	// AnswerDropped closes the connection without an answer (hijack and
	// close): the client cannot know the outcome.
	AnswerDropped AfterFault = "drop-after"
)

// DefaultUnreadableBody is the body of AnswerUnreadable when
// ArmedFault.Body is empty and Truncate is false.
const DefaultUnreadableBody = "<html>gateway says ok</html>"

// ArmedFault spoils the answers of the next Times changes the store
// accepts on one route: the handler runs (and changes the store) first.
// A request the store refuses (4xx) is answered as usual and does not
// count; neither does a request another fault stopped before the store.
type ArmedFault struct {
	Kind AfterFault
	// Method is POST, PATCH, PUT or DELETE; empty: any of them. GET is
	// never spoiled.
	Method string
	// Path is a route pattern such as "/skybackup/v1/restores" or
	// "/provisioning/v1/services/{id}/security/allowlist", or a request
	// path such as "/provisioning/v1/services/dbtaf12345678/security/allowlist";
	// empty: every route.
	Path string
	// Times is how many accepted changes it spoils (0 means 1).
	Times int
	// Status is the 2xx status of AnswerUnreadable; 0: the status the
	// handler answered (200, or 202 for a service launch).
	Status int
	// Body is the body of AnswerUnreadable; empty: DefaultUnreadableBody.
	Body string
	// Truncate, with an empty Body, sends the first half of the real JSON
	// answer instead (such as {"id": 4), with Content-Type application/json.
	Truncate bool
}

func changeMethod(m string) bool {
	switch m {
	case "POST", "PATCH", "PUT", "DELETE":
		return true
	}
	return false
}

// ArmFault arms f (in addition to faults armed before; the first that
// matches a request is used). It refuses an unknown Kind, a method that is
// not a change, a Status outside 2xx, and a Path that names no route (or
// a route without Method).
//
//	srv.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/restores"})
//	srv.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: "POST", Path: "/provisioning/v1/services", Times: 2})
func (s *Server) ArmFault(f ArmedFault) error {
	switch f.Kind {
	case AnswerUnreadable, AnswerDropped:
	default:
		return fmt.Errorf("sandbox: ArmFault: unknown kind %q (use AnswerUnreadable or AnswerDropped)", f.Kind)
	}
	f.Method = strings.ToUpper(f.Method)
	if f.Method != "" && !changeMethod(f.Method) {
		return fmt.Errorf("sandbox: ArmFault: method %s is not a change (POST, PATCH, PUT or DELETE)", f.Method)
	}
	if f.Status != 0 && (f.Status < 200 || f.Status > 299) {
		return fmt.Errorf("sandbox: ArmFault: status %d is not 2xx", f.Status)
	}
	if f.Times < 0 {
		return fmt.Errorf("sandbox: ArmFault: Times %d is negative", f.Times)
	}
	if f.Times == 0 {
		f.Times = 1
	}
	if f.Path != "" {
		f.Path = strings.TrimRight(f.Path, "/")
		rt := s.routeByPattern(f.Path)
		if rt == nil {
			rt, _, _ = s.match(f.Path)
		}
		if rt == nil {
			return fmt.Errorf("sandbox: ArmFault: %s is no route of the sandbox", f.Path)
		}
		if f.Method != "" && rt.methods[f.Method] == nil {
			return fmt.Errorf("sandbox: ArmFault: %s %s is not routed (allowed: %s)", f.Method, rt.pattern, strings.Join(rt.allow(), ", "))
		}
	}
	s.faults.mu.Lock()
	s.faults.armed = append(s.faults.armed, &f)
	s.faults.mu.Unlock()
	return nil
}

// ArmedLeft is how many answers the armed faults will still spoil.
func (s *Server) ArmedLeft() int {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	n := 0
	for _, a := range s.faults.armed {
		n += a.Times
	}
	return n
}

// DisarmFaults removes every armed fault (SetFaults leaves them alone).
func (s *Server) DisarmFaults() {
	s.faults.mu.Lock()
	s.faults.armed = nil
	s.faults.mu.Unlock()
}

func (s *Server) routeByPattern(pattern string) *route {
	for _, rt := range s.routes {
		if rt.pattern == pattern {
			return rt
		}
	}
	return nil
}

// takeArmed uses up one spoil of the first armed fault matching an
// accepted change of method on the route pattern at path.
func (fi *faultInjector) takeArmed(method, pattern, path string) (ArmedFault, bool) {
	if !changeMethod(method) {
		return ArmedFault{}, false
	}
	fi.mu.Lock()
	defer fi.mu.Unlock()
	for i, a := range fi.armed {
		if a.Method != "" && a.Method != method {
			continue
		}
		if a.Path != "" && a.Path != pattern && a.Path != path {
			continue
		}
		out := *a
		a.Times--
		if a.Times <= 0 {
			fi.armed = append(fi.armed[:i:i], fi.armed[i+1:]...)
		}
		return out, true
	}
	return ArmedFault{}, false
}

package api

import (
	"fmt"
	"strings"
)

// NameServiceIDs names in s each service of svcs that s names by its ID
// alone: "replicates from dbtaf85489797" becomes "replicates from
// orders-prod (dbtaf85489797)". An ID inside a longer word (a backup key,
// a host name) or already after its name is left as it is.
func NameServiceIDs(s string, svcs []Service) string {
	for _, svc := range svcs {
		if svc.ID == "" || svc.Name == "" || svc.Name == svc.ID {
			continue
		}
		named := svc.Name + " (" + svc.ID + ")"
		var b strings.Builder
		rest := s
		for {
			i := strings.Index(rest, svc.ID)
			if i < 0 {
				b.WriteString(rest)
				break
			}
			before, after := rest[:i], rest[i+len(svc.ID):]
			b.WriteString(before)
			if idAlone(b.String(), after) && !strings.HasSuffix(b.String(), svc.Name+" (") {
				b.WriteString(named)
			} else {
				b.WriteString(svc.ID)
			}
			rest = after
		}
		s = b.String()
	}
	return s
}

// idAlone reports whether an ID between before and after stands as a word
// of its own: after a space, a bracket or a quote (or at the start), and
// before a space, a bracket, a quote, a comma or semicolon, or a colon or
// full stop that ends a clause (or at the end).
func idAlone(before, after string) bool {
	if before != "" && !strings.ContainsAny(before[len(before)-1:], " (\"'") {
		return false
	}
	switch {
	case after == "":
		return true
	case strings.ContainsAny(after[:1], " ),;\"'"):
		return true
	case strings.ContainsAny(after[:1], ":."):
		return len(after) == 1 || after[1] == ' '
	}
	return false
}

// SharedName says that the services found share the name a command was
// given: `2 services are named "x" (db1, db2)`, each ID followed by its
// status where status is set. What to do about it is the caller's to add.
func SharedName(name string, found []*Service, status bool) string {
	ids := make([]string, len(found))
	for i, f := range found {
		ids[i] = f.ID
		if status {
			ids[i] += " " + f.Status
			if f.Status == "" {
				ids[i] += "?"
			}
		}
	}
	return fmt.Sprintf("%d services are named %q (%s)", len(found), name, strings.Join(ids, ", "))
}

// ServicesNamed are the services of svcs that arg names, as a command
// takes a service: the one whose ID it is, else every one of that exact
// name (more than one where a name is shared, which a caller must not
// choose between).
func ServicesNamed(svcs []Service, arg string) []*Service {
	for i := range svcs {
		if svcs[i].ID == arg {
			return []*Service{&svcs[i]}
		}
	}
	var found []*Service
	for i := range svcs {
		if svcs[i].Name == arg {
			found = append(found, &svcs[i])
		}
	}
	return found
}

// Package pathtmpl matches request paths against path templates such as
// /services/{id}/replication: the sandbox's routes and the paths of the
// OpenAPI description alike.
package pathtmpl

import "strings"

// Template is a path template split into its segments; a segment {name}
// is a parameter.
type Template []string

// Parse splits a template (or a path) into its segments.
func Parse(t string) Template { return strings.Split(strings.Trim(t, "/"), "/") }

// Match matches the segments of a path: a parameter takes any non-empty
// segment, any other segment must be equal. It returns the parameters by
// name and how many literal segments matched.
func (t Template) Match(segs []string) (params map[string]string, literals int, ok bool) {
	if len(t) != len(segs) {
		return nil, 0, false
	}
	params = map[string]string{}
	for i, s := range t {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			if segs[i] == "" {
				return nil, 0, false
			}
			params[strings.Trim(s, "{}")] = segs[i]
			continue
		}
		if s != segs[i] {
			return nil, 0, false
		}
		literals++
	}
	return params, literals, true
}

// Best finds the item whose template matches path with the most literal
// segments (/backups/schedules over /backups/{id}; the first of equals)
// and the path's parameters; ok is false when none matches.
func Best[T any](path string, items []T, tmpl func(T) Template) (best T, params map[string]string, ok bool) {
	segs := Parse(path)
	most := -1
	for _, it := range items {
		ps, lit, match := tmpl(it).Match(segs)
		if match && lit > most {
			best, params, most = it, ps, lit
		}
	}
	return best, params, most >= 0
}

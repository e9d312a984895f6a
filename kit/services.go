package kit

import (
	"sort"
	"strings"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/theme"
)

// ServiceColumns are the columns of a table to choose a service from
// (the restore wizard's target and source, the migration's services).
func ServiceColumns() []Column {
	return []Column{
		{Title: "NAME", Min: 10, Max: 24, Priority: 10},
		{Title: "ID", Min: 13, Max: 16, Priority: 9},
		{Title: "PROVIDER", Min: 8, Max: 24, Priority: 7},
		{Title: "STATUS", Min: 8, Max: 18, Priority: 8},
	}
}

// NotedServiceColumns are ServiceColumns and why a service cannot be
// chosen (ServiceRows' note), before the ID when space is short.
func NotedServiceColumns() []Column {
	return append(ServiceColumns(), Column{Title: "CANNOT BE", Min: 20, Max: 30, Priority: 9})
}

// ServiceRows are the rows of ServiceColumns, by name; with note, of
// NotedServiceColumns: the services note refuses are muted.
func ServiceRows(svcs []api.Service, note func(*api.Service) string) []Row {
	rows := make([]Row, 0, len(svcs))
	for i := range svcs {
		v := &svcs[i]
		r := Row{ID: v.ID, Cells: []string{v.Name, v.ID, v.Where(), v.Status},
			Kinds: []theme.Kind{0, 0, 0, theme.StatusKind(v.Status)}}
		if note != nil {
			n := note(v)
			r.Cells = append(r.Cells, n)
			r.Kinds = append(r.Kinds, theme.KindMuted)
			if n != "" {
				r.Kinds[0] = theme.KindMuted
			}
		}
		rows = append(rows, r)
	}
	sort.SliceStable(rows, func(i, j int) bool { return strings.ToLower(rows[i].Cells[0]) < strings.ToLower(rows[j].Cells[0]) })
	return rows
}

// ServicesUnread is what a list of services to choose from says while it
// has none because the listing failed (no API key, a refused key, the
// network), instead of "loading" for ever.
func ServicesUnread(err error) string { return "could not load services: " + err.Error() }

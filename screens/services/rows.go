package services

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// The services table's rows (sorted, with the status's elapsed time) and
// the detail pane's sections: every field of the service record.

func (s *Screen) sortServices() {
	svcs := s.services
	by, desc := s.SortOrder()
	less := func(a, b *api.Service) int {
		switch by {
		case sortStatus:
			if c := strings.Compare(strings.ToLower(a.Status), strings.ToLower(b.Status)); c != 0 {
				return c
			}
		case sortCreated:
			if c := a.CreatedOn.Compare(b.CreatedOn.Time); c != 0 {
				return c
			}
		}
		if c := strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	}
	sort.SliceStable(svcs, func(i, j int) bool {
		c := less(&svcs[i], &svcs[j])
		if desc {
			return c > 0
		}
		return c < 0
	})
}

// nodesText is a service's node count: none when it has none, unread
// when the API sent a value skytui cannot read.
func nodesText(v *api.Service, none, unread string) string {
	switch {
	case !v.Known("nodes"):
		return unread
	case v.Nodes > 0:
		return strconv.Itoa(v.Nodes)
	}
	return none
}

// rebuildRows sorts the services and hands the table its rows; the table
// keeps the cursor on the same ID.
func (s *Screen) rebuildRows() {
	s.sortServices()
	now := s.common.Time()
	rows := make([]kit.Row, len(s.services))
	clear(s.byID)
	for i := range s.services {
		v := &s.services[i]
		s.byID[v.ID] = i
		nodes := nodesText(v, "", "?")
		rows[i] = kit.Row{
			ID: v.ID,
			Cells: []string{
				colName:    v.Name,
				colID:      v.ID,
				colStatus:  statusText(v, now),
				colWhere:   v.Where(),
				colSize:    v.Size,
				colNodes:   nodes,
				colCreated: kit.ShortTime(v.CreatedOn, now),
				colVersion: v.Version,
				colRW:      readWrite(v),
			},
			Kinds: []theme.Kind{colStatus: statusKind(v, now), colRW: 0},
		}
	}
	col := colName
	by, desc := s.SortOrder()
	switch by {
	case sortStatus:
		col = colStatus
	case sortCreated:
		col = -1
	}
	s.Table.SetSortIndicator(col, desc)
	s.SetRows(rows)
}

// statusText is the status word; while launching, with the elapsed time
// against the launch estimate ("pending_create 2m00s/~5m"; past it
// "pending_create 8m48s>~5m", no wider, so the table's STATUS column
// keeps its width and the columns beside it are not cut), and in other
// pending states with the time since the last change.
func statusText(v *api.Service, now time.Time) string {
	if el, ok := launching(v, now); ok {
		if el > LaunchEstimate {
			return fmt.Sprintf("%s %s>~5m", v.Status, lateElapsed(el))
		}
		return fmt.Sprintf("%s %s/~5m", v.Status, kit.Elapsed(el))
	}
	if v.Pending() && !v.UpdatedOn.IsZero() && now.After(v.UpdatedOn.Time) {
		return fmt.Sprintf("%s %s", v.Status, kit.Elapsed(now.Sub(v.UpdatedOn.Time)))
	}
	return v.Status
}

// statusDetail is the status in the detail pane, where there is room to
// say a launch is past its estimate in words.
func statusDetail(v *api.Service, now time.Time) string {
	if el, ok := launching(v, now); ok && el > LaunchEstimate {
		return fmt.Sprintf("%s %s (past the ~5m estimate)", v.Status, kit.Elapsed(el))
	}
	return statusText(v, now)
}

// statusKind is how the status is coloured: a launch past its estimate
// as a warning.
func statusKind(v *api.Service, now time.Time) theme.Kind {
	if el, ok := launching(v, now); ok && el > LaunchEstimate {
		return theme.KindWarn
	}
	return theme.StatusKind(v.Status)
}

// launching is how long a service being created has been at it.
func launching(v *api.Service, now time.Time) (time.Duration, bool) {
	if !v.Pending() || !api.StatusIs(v.Status, "pending_create") || v.CreatedOn.IsZero() {
		return 0, false
	}
	return now.Sub(v.CreatedOn.Time), true
}

// lateElapsed is the time of a launch past its estimate in at most five
// cells, as the time of one on time ("4m59s"): the seconds until ten
// minutes, then whole minutes, hours and minutes, whole hours.
func lateElapsed(d time.Duration) string {
	switch {
	case d >= 10*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	case d >= 10*time.Minute && d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	}
	return kit.Elapsed(d)
}

func readWrite(v *api.Service) string {
	p := v.ReadWritePort()
	if v.FQDN == "" || p == 0 {
		return "-"
	}
	return v.FQDN + ":" + strconv.Itoa(p)
}

func (s *Screen) detailOf(id string) (string, []kit.Section, bool) {
	v, ok := s.service(id)
	if !ok {
		return "", nil, false
	}
	return v.Name + " (" + v.ID + ")", detailSections(&v, s.common.Time()), true
}

// detailSections lists every field of the service record.
func detailSections(v *api.Service, now time.Time) []kit.Section {
	opt := func(s string) string {
		if s == "" {
			return "-"
		}
		return s
	}
	created := "-"
	if v.CreatedOn.Unread() {
		created = v.CreatedOn.Raw + " (as the API sent it; not a time skytui can read)"
	}
	if !v.CreatedOn.IsZero() {
		created = v.CreatedOn.Local().Format("2006-01-02 15:04:05") + " (" + kit.Ago(now.Sub(v.CreatedOn.Time)) + " ago)"
	}
	updated := "-"
	if !v.UpdatedOn.IsZero() {
		updated = v.UpdatedOn.Local().Format("2006-01-02 15:04:05")
	}
	nodes := nodesText(v, "-", "? (the API sent a value skytui cannot read)")
	svc := kit.Section{Fields: []kit.Field{
		{Label: "Status", Value: statusDetail(v, now), Kind: statusKind(v, now)},
		{Label: "Name", Value: v.Name},
		{Label: "ID", Value: v.ID},
		{Label: "Type", Value: opt(v.ServiceType)},
		{Label: "Topology", Value: opt(v.Topology)},
		{Label: "Provider", Value: opt(v.Provider)},
		{Label: "Region", Value: opt(v.Region)},
		{Label: "Architecture", Value: opt(v.Architecture)},
		{Label: "Size", Value: opt(v.Size)},
		{Label: "Nodes", Value: nodes},
		{Label: "Version", Value: opt(v.Version)},
		{Label: "Created", Value: created},
		{Label: "Updated", Value: updated},
	}}
	ssl := "disabled"
	if v.SSLEnabled {
		ssl = "enabled"
	}
	fqdn := v.FQDN
	if fqdn == "" {
		fqdn = "(assigned when ready)"
	}
	conn := kit.Section{Title: "Connection", Fields: []kit.Field{
		{Label: "FQDN", Value: fqdn},
		{Label: "SSL", Value: ssl},
	}}
	for _, e := range v.Endpoints {
		var ports []string
		for _, p := range e.Ports {
			l := fmt.Sprintf("%s %d", p.Name, p.Port)
			if p.Purpose != "" && p.Purpose != p.Name {
				l += " (" + p.Purpose + ")"
			}
			ports = append(ports, l)
		}
		label := "Ports"
		if e.Name != "" {
			label = "Ports " + e.Name
		}
		conn.Fields = append(conn.Fields, kit.Field{Label: label, Value: strings.Join(ports, "\n")})
	}
	if len(v.Endpoints) == 0 {
		conn.Fields = append(conn.Fields, kit.Field{Label: "Ports", Value: "(assigned when ready)"})
	}
	var allow []string
	for _, e := range v.AllowList() {
		l := e.IP
		if e.Comment != "" {
			l += "  " + e.Comment
		}
		allow = append(allow, l)
	}
	allowText := strings.Join(allow, "\n")
	if allowText == "" {
		allowText = "(empty: no address may connect)"
	}
	outbound := strings.Join(v.OutboundIPs, "\n")
	if outbound == "" {
		outbound = "-"
	}
	netw := kit.Section{Title: "Network", Fields: []kit.Field{
		{Label: "Outbound IPs", Value: outbound},
		{Label: "Allow list", Value: allowText},
	}}
	stor := kit.Section{Title: "Storage", Fields: []kit.Field{{Label: "Size", Value: "-"}}}
	if sv := v.StorageVolume; sv != nil {
		stor.Fields = []kit.Field{{Label: "Size", Value: fmt.Sprintf("%d GB", sv.Size)}}
		if sv.VolumeType != "" {
			stor.Fields = append(stor.Fields, kit.Field{Label: "Volume type", Value: sv.VolumeType})
		}
		if sv.IOPS > 0 {
			stor.Fields = append(stor.Fields, kit.Field{Label: "IOPS", Value: strconv.Itoa(sv.IOPS)})
		}
		if sv.Throughput > 0 {
			stor.Fields = append(stor.Fields, kit.Field{Label: "Throughput", Value: strconv.Itoa(sv.Throughput)})
		}
	}
	secs := []kit.Section{svc, conn, netw, stor}
	if len(v.Errors) > 0 {
		secs = append(secs, kit.Section{Title: "Errors", Fields: []kit.Field{{Label: "Errors", Value: strings.Join(v.Errors, "\n"), Kind: theme.KindError}}})
	}
	return secs
}

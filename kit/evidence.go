package kit

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"strconv"

	"github.com/skytui/skytui/api"
)

// Evidence readers for kit.Action.Evidence: what a change leaves behind,
// as ID -> one line. The action layer reads them before a change is sent
// and again when its outcome is unknown, and shows what appeared.

var errNoClient = errors.New("no API client")

// listEvidence reads a listing and lets each item add its lines.
func listEvidence[T any](client *api.Client, list func(context.Context) ([]T, error), each func(item T, out map[string]string)) func(context.Context) (map[string]string, error) {
	return func(ctx context.Context) (map[string]string, error) {
		if client == nil {
			return nil, errNoClient
		}
		items, err := list(ctx)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, it := range items {
			each(it, out)
		}
		return out, nil
	}
}

// RestoresEvidence reads the restores of the target service.
func RestoresEvidence(client *api.Client, serviceID, serviceName string) func(context.Context) (map[string]string, error) {
	list := func(ctx context.Context) ([]api.Restore, error) { return client.ListRestores(ctx, serviceID) }
	return listEvidence(client, list, func(r api.Restore, out map[string]string) {
		if r.ServiceID != "" && r.ServiceID != serviceID {
			return // the interface document's listing has every service
		}
		src := r.Key
		if r.Bucket != "" {
			src = r.Bucket + r.Key
		}
		out["restore/"+strconv.FormatInt(int64(r.ID), 10)] = fmt.Sprintf("restore %d into %s: %s (from %s)", int64(r.ID), serviceName, orUnknown(r.Status), orUnknown(api.ShortKey(src)))
	})
}

// BackupJobsEvidence reads the backup schedules and the backups of a
// service: a lost answer to "back up now" shows as a new job or backup.
func BackupJobsEvidence(client *api.Client, serviceID string) func(context.Context) (map[string]string, error) {
	scheds := listEvidence(client, func(ctx context.Context) ([]api.Schedule, error) { return client.ListSchedules(ctx, serviceID) },
		func(sc api.Schedule, out map[string]string) {
			if sc.ServiceID != "" && sc.ServiceID != serviceID {
				return
			}
			out["schedule/"+strconv.FormatInt(int64(sc.ID), 10)] = fmt.Sprintf("backup job %d: %s %s, %s", int64(sc.ID), orUnknown(sc.Type), orUnknown(sc.Expression()), orUnknown(sc.Status))
		})
	backups := listEvidence(client, func(ctx context.Context) ([]api.Backup, error) { return client.ListBackups(ctx, serviceID) },
		func(b api.Backup, out map[string]string) {
			out["backup/"+b.Key] = fmt.Sprintf("backup %s: %s, %s", api.ShortKey(b.Key), orUnknown(b.Type), api.BackupWord(b.Status)) // the lists' word
		})
	return func(ctx context.Context) (map[string]string, error) {
		out, err := scheds(ctx)
		if err != nil {
			return nil, err
		}
		more, err := backups(ctx)
		if err != nil {
			return nil, err
		}
		maps.Copy(out, more)
		return out, nil
	}
}

// ServicesEvidence reads the services named name.
func ServicesEvidence(client *api.Client, name string) func(context.Context) (map[string]string, error) {
	return listEvidence(client, client.ListServices, func(s api.Service, out map[string]string) {
		if s.Name == name {
			out["service/"+s.ID] = fmt.Sprintf("service %s (%s): %s", s.Name, s.ID, orUnknown(s.Status))
		}
	})
}

// ServiceStatusEvidence reads every service's status: a stop, start,
// scale or delete shows in its service's status.
func ServiceStatusEvidence(client *api.Client) func(context.Context) (map[string]string, error) {
	return listEvidence(client, client.ListServices, func(v api.Service, out map[string]string) {
		out[v.ID] = fmt.Sprintf("%s (%s): %s", v.Name, v.ID, v.Status)
	})
}

// AllowListEvidence reads a service's allow list: each address with its
// comment, so a comment set shows as what appeared too.
func AllowListEvidence(client *api.Client, serviceID, serviceName string) func(context.Context) (map[string]string, error) {
	list := func(ctx context.Context) ([]api.AllowListGroup, error) { return client.GetAllowList(ctx, serviceID) }
	return listEvidence(client, list, func(g api.AllowListGroup, out map[string]string) {
		for _, e := range g.AllowList {
			if e.Comment == "" {
				out["ip/"+e.IP] = allowListLine(e, serviceName)
				continue
			}
			out["ip/"+e.IP+"#"+e.Comment] = allowListLine(e, serviceName)
		}
	})
}

// allowListLine is how an allow-list entry is shown as evidence.
func allowListLine(e api.AllowListEntry, serviceName string) string {
	if e.Comment == "" {
		return e.IP + " is in the allow list of " + serviceName
	}
	return fmt.Sprintf("%s (%q) is in the allow list of %s", e.IP, e.Comment, serviceName)
}

// AllowListEffect is a kit.Action.Effect for an allow-list add of ip
// (api.NormalizeAllowListIP) to service id, or the setting of its
// comment (comment not empty): a reading of that allow list shows it
// carried out when it lists ip, with comment if one was sent. The other
// entries prove nothing.
func AllowListEffect(id, serviceName, ip, comment string) func(DataMsg) string {
	return func(msg DataMsg) string {
		groups, err, ok := AllowListKey(id).Of(msg)
		if !ok || err != nil {
			return ""
		}
		for _, g := range groups {
			for _, e := range g.AllowList {
				if api.NormalizeAllowListIP(e.IP) == ip && (comment == "" || e.Comment == comment) {
					return allowListLine(e, serviceName)
				}
			}
		}
		return ""
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// ServiceEffect is a kit.Action.Effect for a change of service id (named
// name): the services listing shows it carried out when shows says so of
// the listed service, or of nil when the listing no longer has it.
func ServiceEffect(id, name string, shows func(v *api.Service) bool) func(DataMsg) string {
	return func(msg DataMsg) string {
		svcs, err, ok := ServicesKey.Of(msg)
		if !ok || err != nil || svcs == nil {
			return "" // not a reading of the services
		}
		for i := range svcs {
			if v := &svcs[i]; v.ID == id {
				if shows(v) {
					return fmt.Sprintf("%s (%s): %s", api.OrID(v.Name, name), id, orUnknown(v.Status))
				}
				return ""
			}
		}
		if shows(nil) {
			return fmt.Sprintf("%s (%s): no longer listed", name, id)
		}
		return ""
	}
}

// StatusIn is a ServiceEffect test: the service is listed with one of
// statuses (a stop: pending_stop, stopped).
func StatusIn(statuses ...string) func(v *api.Service) bool {
	return func(v *api.Service) bool { return v != nil && api.StatusIs(v.Status, statuses...) }
}

// GoneOr is a ServiceEffect test: the service is no longer listed, or is
// listed with one of statuses (a delete: pending_delete, deleted).
func GoneOr(statuses ...string) func(v *api.Service) bool {
	return func(v *api.Service) bool { return v == nil || api.StatusIs(v.Status, statuses...) }
}

package kit

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/skytui/skytui/api"
)

// Evidence readers for kit.Action.Evidence: what a change leaves behind,
// as ID -> one line. The action layer reads them before a change is sent
// and again when its outcome is unknown, and shows what appeared.

var errNoClient = errors.New("no API client")

// RestoresEvidence reads the restores of the target service.
func RestoresEvidence(client *api.Client, serviceID, serviceName string) func(context.Context) (map[string]string, error) {
	return func(ctx context.Context) (map[string]string, error) {
		if client == nil {
			return nil, errNoClient
		}
		list, err := client.ListRestores(ctx, serviceID)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, r := range list {
			if r.ServiceID != "" && r.ServiceID != serviceID {
				continue // the interface document's listing has every service
			}
			src := r.Key
			if r.Bucket != "" {
				src = r.Bucket + r.Key
			}
			out["restore/"+strconv.FormatInt(int64(r.ID), 10)] = fmt.Sprintf("restore %d into %s: %s (from %s)", int64(r.ID), serviceName, orUnknown(r.Status), orUnknown(api.ShortKey(src)))
		}
		return out, nil
	}
}

// BackupJobsEvidence reads the backup schedules and the backups of a
// service: a lost answer to "back up now" shows as a new job or backup.
func BackupJobsEvidence(client *api.Client, serviceID string) func(context.Context) (map[string]string, error) {
	return func(ctx context.Context) (map[string]string, error) {
		if client == nil {
			return nil, errNoClient
		}
		out := map[string]string{}
		scheds, err := client.ListSchedules(ctx, serviceID)
		if err != nil {
			return nil, err
		}
		for _, sc := range scheds {
			if sc.ServiceID != "" && sc.ServiceID != serviceID {
				continue
			}
			out["schedule/"+strconv.FormatInt(int64(sc.ID), 10)] = fmt.Sprintf("backup job %d: %s %s, %s", int64(sc.ID), orUnknown(sc.Type), orUnknown(sc.Expression()), orUnknown(sc.Status))
		}
		backups, err := client.ListBackups(ctx, serviceID)
		if err != nil {
			return nil, err
		}
		for _, b := range backups {
			out["backup/"+b.Key] = fmt.Sprintf("backup %s: %s, %s", api.ShortKey(b.Key), orUnknown(b.Type), orUnknown(b.Status))
		}
		return out, nil
	}
}

// ServicesEvidence reads the services named name.
func ServicesEvidence(client *api.Client, name string) func(context.Context) (map[string]string, error) {
	return func(ctx context.Context) (map[string]string, error) {
		if client == nil {
			return nil, errNoClient
		}
		list, err := client.ListServices(ctx)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, s := range list {
			if s.Name == name {
				out["service/"+s.ID] = fmt.Sprintf("service %s (%s): %s", s.Name, s.ID, orUnknown(s.Status))
			}
		}
		return out, nil
	}
}

// AllowListEvidence reads a service's allow list.
func AllowListEvidence(client *api.Client, serviceID, serviceName string) func(context.Context) (map[string]string, error) {
	return func(ctx context.Context) (map[string]string, error) {
		if client == nil {
			return nil, errNoClient
		}
		groups, err := client.GetAllowList(ctx, serviceID)
		if err != nil {
			return nil, err
		}
		out := map[string]string{}
		for _, g := range groups {
			for _, e := range g.AllowList {
				out["ip/"+e.IP] = e.IP + " is in the allow list of " + serviceName
			}
		}
		return out, nil
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// Point-in-time restore: the two lookups of the live description (which
// services can provide backups for a point-in-time restore, and in which
// window; which services a backup or a service's backups can be restored
// into), the moment's rules and the request.

package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// PITRTimeLayout is the description's point_in_time format
// ('CCYY-MM-DD hh:mm:ss'), always in UTC.
const PITRTimeLayout = "2006-01-02 15:04:05"

// MomentForms says which forms ParseMoment accepts, for the text next to
// the field and the --at flag's help.
const MomentForms = `"2026-11-23 10:15" or "2026-11-23 10:15:30" (UTC), or RFC 3339 ("2026-11-23T11:15:00+01:00")`

// ParseMoment reads a moment typed by a user: "YYYY-MM-DD HH:MM[:SS]" (a
// T in place of the space is fine) is UTC, like the API's own format; an
// RFC 3339 time carries its offset. A trailing " UTC" is allowed.
func ParseMoment(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, rule("point_in_time", "is required: %s", MomentForms)
	}
	plain := strings.TrimSpace(strings.TrimSuffix(s, "UTC"))
	for _, l := range []string{time.RFC3339, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	for _, l := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.ParseInLocation(l, plain, time.UTC); err == nil {
			return t, nil
		}
	}
	return time.Time{}, rule("point_in_time", "%q is not a moment: type %s", s, MomentForms)
}

// PITRWindow is one service that can provide backups for a point-in-time
// restore and the moments it can restore to (v1.LookupPointInTimeRestoreService).
type PITRWindow struct {
	ServiceID   string `json:"service_id"`
	ServiceName string `json:"service_name,omitempty"`
	Start       Time   `json:"start_time,omitzero"`
	End         Time   `json:"end_time,omitzero"`
}

// Known reports whether both ends of the window could be read.
func (w PITRWindow) Known() bool { return !w.Start.IsZero() && !w.End.IsZero() }

// String is the window in UTC: "2026-11-20 02:10:00 to 2026-11-23 12:14:00 UTC".
func (w PITRWindow) String() string {
	show := func(t Time) string {
		if t.IsZero() {
			if t.Raw != "" {
				return t.Raw
			}
			return "?"
		}
		return t.UTC().Format(PITRTimeLayout)
	}
	return show(w.Start) + " to " + show(w.End) + " UTC"
}

// Check says why at cannot be restored to from this window (nil when it can).
func (w PITRWindow) Check(at time.Time) error {
	name := w.ServiceName
	if name == "" {
		name = w.ServiceID
	}
	if !w.Known() {
		return rule("point_in_time", "the window of %s could not be read (%s); choose another service or ask again", name, w.String())
	}
	if at.Before(w.Start.Time) || at.After(w.End.Time) {
		return rule("point_in_time", "%s UTC is outside the window of %s: %s", at.UTC().Format(PITRTimeLayout), name, w.String())
	}
	return nil
}

// LookupService is a service a restore can go into (v1.LookupService).
type LookupService struct {
	ServiceID   string `json:"service_id"`
	ServiceName string `json:"service_name,omitempty"`
}

// RestoreLookupRequest is the body of POST /restores/lookup: the backup,
// or the source service (point in time), whose eligible targets are asked.
type RestoreLookupRequest struct {
	BackupID  string `json:"backup_id,omitempty"`
	ServiceID string `json:"service_id,omitempty"`
}

// Validate requires a backup or a source service.
func (r *RestoreLookupRequest) Validate() error {
	var v ValidationErrors
	if r.BackupID == "" && r.ServiceID == "" {
		v.add("service_id", fmt.Errorf("is required (or backup_id): whose backups to restore"))
	}
	if r.ServiceID != "" {
		v.add("service_id", ValidateServiceID(r.ServiceID))
	}
	return v.Err()
}

// PointInTimeRestore restores target to the moment at from the backups and
// binary logs of the service sourceID (the description's id carries the
// source service for a point-in-time restore; point_in_time is UTC).
func PointInTimeRestore(targetID, sourceID string, at time.Time) RestoreRequest {
	return RestoreRequest{ServiceID: targetID, ID: sourceID, PointInTime: at.UTC().Format(PITRTimeLayout)}
}

// PointInTimeWindows asks which services can provide backups for a
// point-in-time restore, and the window of each (GET
// /restores/pointintime/lookup).
func (c *Client) PointInTimeWindows(ctx context.Context) ([]PITRWindow, error) {
	out, _, _, err := getList[PITRWindow](ctx, c, c.backup("/restores/pointintime/lookup"), nil, "services")
	return out, err
}

// RestoreTargets asks which services a backup, or a source service's
// backups, can be restored into (POST /restores/lookup). It changes
// nothing, and like every POST it is never retried.
func (c *Client) RestoreTargets(ctx context.Context, req RestoreLookupRequest) ([]LookupService, error) {
	path := c.backup("/restores/lookup")
	r, err := c.post(ctx, path, &req)
	if err != nil {
		return nil, err
	}
	out, _, err := decodeList[LookupService](r.body, "services")
	if err != nil {
		return nil, malformed(http.MethodPost, path, r, err)
	}
	return out, nil
}

// WindowOf finds the window of a service in a lookup's answer.
func WindowOf(ws []PITRWindow, serviceID string) (PITRWindow, bool) {
	for _, w := range ws {
		if w.ServiceID == serviceID {
			return w, true
		}
	}
	return PITRWindow{}, false
}

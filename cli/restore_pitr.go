package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/skytui/skytui/api"
)

// The point-in-time source of `restores create`: --from SOURCE --at TIME.
// The moment is read before anything is sent; the source's window is asked
// (GET /restores/pointintime/lookup) and a moment outside it refused,
// naming the window, before the restore is sent.

// checkPITR checks --from and --at together (nothing is read or sent).
func (src *restoreSource) checkPITR() error {
	if (src.from == "") != (src.at == "") {
		return usageErrf("--from and --at go together: the service whose backups and binary logs to use, and the moment (%s)", api.MomentForms)
	}
	if src.at == "" {
		return nil
	}
	if _, err := api.ParseMoment(src.at); err != nil {
		return usageErrf("--at: %s", strings.TrimPrefix(err.Error(), "point_in_time: "))
	}
	return nil
}

// pitrRequest builds the point-in-time restore of target: the source is
// resolved among svcs, its window asked, the moment checked against it.
func (c *changeSession) pitrRequest(ctx context.Context, src restoreSource, svcs []api.Service, target *api.Service) (api.RestoreRequest, error) {
	at, err := api.ParseMoment(src.at)
	if err != nil {
		return api.RestoreRequest{}, usageErrf("--at: %v", err)
	}
	source, err := resolveService(svcs, strings.TrimSpace(src.from))
	if err != nil {
		return api.RestoreRequest{}, err
	}
	windows, err := c.client.PointInTimeWindows(ctx)
	if err != nil {
		return api.RestoreRequest{}, fmt.Errorf("asking which services can restore to a point in time (nothing was sent): %w", err)
	}
	w, ok := api.WindowOf(windows, source.ID)
	if !ok {
		var names []string
		for _, w := range windows {
			names = append(names, w.ServiceName+" ("+w.String()+")")
		}
		return api.RestoreRequest{}, usageErrf("--from %s: it cannot provide backups for a point-in-time restore (it needs a completed full backup and its binary logs); services that can: %s. Nothing was sent",
			source.NameOrID(), orNone(strings.Join(names, "; ")))
	}
	if err := w.Check(at); err != nil {
		return api.RestoreRequest{}, usageErrf("--at: %s. Nothing was sent", strings.TrimPrefix(err.Error(), "point_in_time: "))
	}
	if source.Provider != "" && target.Provider != "" && source.Provider != target.Provider {
		return api.RestoreRequest{}, usageErrf("--from %s runs on %s and %s on %s: a restore from a service's backups is possible only within the same cloud provider (nothing was sent)",
			source.NameOrID(), source.Provider, target.NameOrID(), target.Provider)
	}
	return api.PointInTimeRestore(target.ID, source.ID, at), nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

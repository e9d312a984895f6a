package cli

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// services stop, start, scale and delete: the service lifecycle. Each is
// sent once; --wait follows the service to stopped, ready or gone.

// lifecycleVerbs are stop, start and delete: one request on the service,
// its confirmations and the state --wait follows it to.
var lifecycleVerbs = []struct {
	use, short, long string
	run              lifecycleRun
}{
	{"stop SERVICE --yes", "Stop a ready service: its connections drop and replication to it stops (needs --yes)",
		`Stop a ready service. Every connection to it drops, replication to it
stops, and it serves nothing until it is started again. The service is
pending_stop for a few minutes, then stopped; --wait follows it there.
Refused (409) while the service is in a pending state.

  skytui services stop orders-stage --yes --wait`,
		lifecycleRun{what: "services stop", yes: true, waitFor: forStopped, done: "stopping", send: (*api.Client).StopService}},
	{"start SERVICE", "Start a stopped service (pending_start, then ready; --wait follows it)",
		`Start a stopped service. It is pending_start for a few minutes, then
ready; --wait follows it there. Refused (409) while the service is in a
pending state, and when it is not stopped.

  skytui services start orders-stage --wait`,
		lifecycleRun{what: "services start", waitFor: forReady, done: "starting", send: (*api.Client).StartService}},
	{"delete SERVICE --yes --confirm NAME", "Delete a service and its data (needs --yes and --confirm with its exact name)",
		`Delete a service and all its data. This cannot be undone. --yes and
--confirm with the service's exact name are required, as the TUI asks you
to type the name. The service is pending_delete, then gone from the list;
--wait follows it until it is gone. Refused while the service is pending
or is the target of a running restore.

  skytui services delete scratch-01 --yes --confirm scratch-01 --wait`,
		lifecycleRun{what: "services delete", yes: true, confirm: true, waitFor: forDeleted, done: "deleting", send: (*api.Client).DeleteService}},
}

// lifecycleCmds are services stop, start, delete and scale.
func (e *env) lifecycleCmds() []*cobra.Command {
	cmds := []*cobra.Command{newServicesScaleCmd(e)}
	for _, v := range lifecycleVerbs {
		cmds = append(cmds, e.lifecycleCmd(v.use, v.short, v.long, v.run))
	}
	return cmds
}

// lifecycleCmd makes a verb that runs r on its SERVICE argument, with
// --yes and --confirm as r needs them, and --wait.
func (e *env) lifecycleCmd(use, short, long string, r lifecycleRun) *cobra.Command {
	var cf changeFlags
	n := withWait
	if r.yes {
		n |= withYes
	}
	if r.confirm {
		n |= withConfirm
	}
	r.cf = &cf
	return cf.verb(n, use, short, long, cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		return e.runLifecycle(cmd, args[0], r)
	})
}

// lifecycleRun opens the change (read-only refused), applies the
// confirmations, finds the service and hands it to send.
type lifecycleRun struct {
	what    string // "services stop"
	cf      *changeFlags
	yes     bool   // needs --yes
	confirm bool   // needs --confirm NAME
	waitFor string // forReady, forStopped, forDeleted
	// check validates the change against the service before it is sent
	// (a usage error: nothing was sent).
	check func(ctx context.Context, c *api.Client, s *api.Service) error
	send  func(c *api.Client, ctx context.Context, id string) error
	done  string // "stopping", said on stderr when not waiting
}

func (e *env) runLifecycle(cmd *cobra.Command, arg string, r lifecycleRun) error {
	c, s, _, err := e.openService(cmd, serviceOp{what: r.what, arg: "service", cf: r.cf, yes: r.yes, confirm: r.confirm}, arg)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if r.check != nil {
		if err := r.check(ctx, c.client, s); err != nil {
			return err
		}
	}
	check := "skytui services get " + c.arg(s)
	if err := r.send(c.client, ctx, s.ID); err != nil {
		return sentErr(err, check)
	}
	if r.cf.wait {
		w := e.newWaiter(r.cf, s.NameOrID(), check)
		w.afterChange = true
		return e.followService(ctx, c, w, s, r.waitFor)
	}
	now, err := c.client.GetService(ctx, s.ID)
	if api.IsNotFound(err) && r.waitFor == forDeleted {
		// a delete accepted whose service is gone already: done, as
		// `wait service --for deleted` says of it
		gone := *s
		gone.Status = forDeleted
		return c.out.emit(e.stdout, &gone, servicesTable([]api.Service{gone}))
	}
	if err != nil {
		// Sent and accepted; only the read after it failed.
		return e.notReadAgain(c, fmt.Sprintf("%s %s: accepted (%s); reading it again failed: %v", r.what, s.NameOrID(), r.done, firstLine(err)),
			check, map[string]any{"service": s.NameOrID(), "service_id": s.ID})
	}
	return c.out.emit(e.stdout, now, servicesTable([]api.Service{*now}))
}

func newServicesScaleCmd(e *env) *cobra.Command {
	var cf changeFlags
	var nodes, storage int
	var size string
	cmd := cf.verb(withWait, "scale SERVICE --nodes N | --size SIZE | --storage GB",
		"Change a ready service's nodes, instance size or storage (storage only grows)",
		`Scale a ready service: one of --nodes (within the topology's range: a
single-node topology such as es-single has one node, es-replica 2 to 5;
other topologies' counts are the API's to judge),
--size (one of the sizes listed for its provider, topology and
architecture) or --storage (GB, only upward, one of the storage sizes
listed for its topology). A choice that is not offered exits 2 naming the
choices, nothing sent. The service is pending_scale, then ready; --wait
follows it there.

  skytui services scale orders-prod --size sky-4x16 --wait
  skytui services scale orders-prod --storage 200`,
		cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
			set := 0
			for _, f := range []string{"nodes", "size", "storage"} {
				if cmd.Flags().Changed(f) {
					set++
				}
			}
			if set != 1 {
				return usageErrf("services scale: give exactly one of --nodes, --size or --storage (each is its own change)")
			}
			switch {
			case cmd.Flags().Changed("nodes"):
				if err := api.ValidateNodes(nodes); err != nil {
					return requestErr(err, map[string]string{"nodes": "--nodes"})
				}
			case cmd.Flags().Changed("storage"):
				if err := api.ValidateStorageChange(0, storage); err != nil {
					return requestErr(err, map[string]string{"storage": "--storage"})
				}
			case strings.TrimSpace(size) == "":
				return usageErrf("--size (size): is required")
			}
			run := lifecycleRun{what: "services scale", cf: &cf, waitFor: forReady, done: "scaling"}
			switch {
			case cmd.Flags().Changed("nodes"):
				run.check = func(_ context.Context, _ *api.Client, s *api.Service) error {
					if s.Nodes == nodes {
						return usageErrf("--nodes %d: %s already has %s (nothing was sent)", nodes, s.NameOrID(), kit.Count(nodes, "node", "nodes"))
					}
					return checkNodes(nodes, s.Topology)
				}
				run.send = func(c *api.Client, ctx context.Context, id string) error { return c.SetNodes(ctx, id, nodes) }
			case cmd.Flags().Changed("size"):
				run.check = func(ctx context.Context, c *api.Client, s *api.Service) error {
					if size == s.Size {
						return usageErrf("--size %s: %s is already %s (nothing was sent)", size, s.NameOrID(), size)
					}
					sizes, err := c.ListSizes(ctx, s.Provider, s.Topology, s.Architecture)
					if err != nil {
						return e.unread(ctx, "services scale", "sizes of "+s.Topology+" on "+s.Provider, "--size", err)
					}
					return offered("--size", size, s.Topology+" on "+s.Provider, sizeNames(sizes), "")
				}
				run.send = func(c *api.Client, ctx context.Context, id string) error { return c.SetSize(ctx, id, size) }
			default:
				run.check = func(ctx context.Context, c *api.Client, s *api.Service) error {
					cur := 0
					if s.StorageVolume != nil {
						cur = s.StorageVolume.Size
					}
					if err := api.ValidateStorageChange(cur, storage); err != nil {
						return requestErr(err, map[string]string{"storage": "--storage"})
					}
					listing, err := c.ListStorageSizes(ctx, s.Topology)
					if err != nil {
						return e.unread(ctx, "services scale", "storage sizes of "+s.Topology, "--storage", err)
					}
					choices := api.StorageChoices(listing, cur)
					if len(listing) > 0 && len(choices) == 0 {
						return usageErrf("--storage %d: %s offers no storage size larger than the current %d GB (nothing was sent)", storage, s.Topology, cur)
					}
					return offered("--storage", strconv.Itoa(storage), s.Topology, intWords(choices), "GB")
				}
				run.send = func(c *api.Client, ctx context.Context, id string) error { return c.SetStorageSize(ctx, id, storage) }
			}
			return e.runLifecycle(cmd, args[0], run)
		})
	fl := cmd.Flags()
	fl.IntVar(&nodes, "nodes", 0, "the new number of nodes")
	fl.StringVar(&size, "size", "", "the new instance size, such as sky-4x16")
	fl.IntVar(&storage, "storage", 0, "the new storage size in GB (only larger)")
	return cmd
}

// offered refuses a value that a listing does not offer: a usage error
// naming the flag, what the listing was for ("es-single on aws"; "" for
// no qualifier) and the choices, with unit after them ("GB"; "" for none). Nothing listed
// checks nothing: the API judges.
func offered(flag, value, forWhat string, choices []string, unit string) error {
	if len(choices) == 0 || slices.Contains(choices, value) {
		return nil
	}
	list := strings.Join(choices, ", ")
	if unit != "" {
		list += " " + unit
	}
	if forWhat != "" {
		forWhat = " for " + forWhat
	}
	return usageErrf("%s %s: not offered%s; choose one of %s (nothing was sent)", flag, value, forWhat, list)
}

// namesOf is the name of each option of a listing (its choices).
func namesOf[T any](items []T, name func(T) string) []string {
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = name(it)
	}
	return names
}

func sizeNames(sizes []api.Size) []string {
	return namesOf(sizes, func(z api.Size) string { return z.Name })
}

func intWords(ns []int) []string { return namesOf(ns, strconv.Itoa) }

// checkNodes refuses a node count the topology cannot have (api.NodeRange:
// a single-node topology one, es-replica 2 to 5): a usage error, nothing
// sent. Any other topology's count is the API's to judge.
func checkNodes(nodes int, topology string) error {
	lo, hi, known := api.NodeRange(topology)
	switch {
	case !known || nodes >= lo && nodes <= hi:
		return nil
	case lo == hi && lo == 1:
		return usageErrf("--nodes %d: topology %s has one node (nothing was sent)", nodes, topology)
	}
	return usageErrf("--nodes %d: topology %s has %d to %d nodes (nothing was sent)", nodes, topology, lo, hi)
}

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

func newServicesLifecycleCmds(e *env) []*cobra.Command {
	return []*cobra.Command{newServicesStopCmd(e), newServicesStartCmd(e), newServicesScaleCmd(e), newServicesDeleteCmd(e)}
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
	send  func(ctx context.Context, c *api.Client, s *api.Service) error
	done  string // "stopping", said on stderr when not waiting
}

func (e *env) runLifecycle(cmd *cobra.Command, arg string, r lifecycleRun) error {
	if err := checkServiceArg("service", arg); err != nil {
		return err
	}
	if r.confirm && strings.TrimSpace(r.cf.confirm) == "" {
		if err := needConfirm(r.cf, r.what, nil); err != nil {
			return err
		}
	}
	c, err := e.openChange(cmd, r.cf, r.what)
	if err != nil {
		return err
	}
	if r.yes {
		if err := needYes(r.cf, r.what); err != nil {
			return err
		}
	}
	ctx := cmd.Context()
	s, _, err := c.serviceByArg(cmd, "service", arg)
	if err != nil {
		return err
	}
	if r.confirm {
		if err := needConfirm(r.cf, r.what, s); err != nil {
			return err
		}
	}
	if r.check != nil {
		if err := r.check(ctx, c.client, s); err != nil {
			return err
		}
	}
	check := "skytui services get " + kit.ShellQuote(s.NameOrID())
	if err := r.send(ctx, c.client, s); err != nil {
		return sentErr(err, check)
	}
	if r.cf.wait {
		return e.followService(ctx, c, e.newWaiter(r.cf, s.NameOrID(), check), s, r.waitFor)
	}
	now, err := c.client.GetService(ctx, s.ID)
	if err != nil {
		// Sent and accepted; only the read after it failed.
		fmt.Fprintf(e.stderr, "skytui: %s %s: accepted (%s); reading it again failed: %v\n", r.what, s.NameOrID(), r.done, firstLine(err))
		return nil
	}
	return c.out.emit(e.stdout, now, servicesTable([]api.Service{*now}))
}

func newServicesStopCmd(e *env) *cobra.Command {
	var cf changeFlags
	cmd := &cobra.Command{
		Use:   "stop SERVICE --yes",
		Short: "Stop a ready service: its connections drop and replication to it stops (needs --yes)",
		Long: `Stop a ready service. Every connection to it drops, replication to it
stops, and it serves nothing until it is started again. The service is
pending_stop for a few minutes, then stopped; --wait follows it there.
Refused (409) while the service is in a pending state.

  skytui services stop orders-stage --yes --wait` + scriptHelpTail,
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: e.completeServiceArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.runLifecycle(cmd, args[0], lifecycleRun{what: "services stop", cf: &cf, yes: true, waitFor: forStopped, done: "stopping",
				send: func(ctx context.Context, c *api.Client, s *api.Service) error { return c.StopService(ctx, s.ID) }})
		},
	}
	cf.register(cmd, true, false, true)
	return cmd
}

func newServicesStartCmd(e *env) *cobra.Command {
	var cf changeFlags
	cmd := &cobra.Command{
		Use:   "start SERVICE",
		Short: "Start a stopped service (pending_start, then ready; --wait follows it)",
		Long: `Start a stopped service. It is pending_start for a few minutes, then
ready; --wait follows it there. Refused (409) while the service is in a
pending state, and when it is not stopped.

  skytui services start orders-stage --wait` + scriptHelpTail,
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: e.completeServiceArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.runLifecycle(cmd, args[0], lifecycleRun{what: "services start", cf: &cf, waitFor: forReady, done: "starting",
				send: func(ctx context.Context, c *api.Client, s *api.Service) error { return c.StartService(ctx, s.ID) }})
		},
	}
	cf.register(cmd, false, false, true)
	return cmd
}

func newServicesDeleteCmd(e *env) *cobra.Command {
	var cf changeFlags
	cmd := &cobra.Command{
		Use:   "delete SERVICE --yes --confirm NAME",
		Short: "Delete a service and its data (needs --yes and --confirm with its exact name)",
		Long: `Delete a service and all its data. This cannot be undone. --yes and
--confirm with the service's exact name are required, as the TUI asks you
to type the name. The service is pending_delete, then gone from the list;
--wait follows it until it is gone. Refused while the service is pending
or is the target of a running restore.

  skytui services delete scratch-01 --yes --confirm scratch-01 --wait` + scriptHelpTail,
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: e.completeServiceArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.runLifecycle(cmd, args[0], lifecycleRun{what: "services delete", cf: &cf, yes: true, confirm: true, waitFor: forDeleted, done: "deleting",
				send: func(ctx context.Context, c *api.Client, s *api.Service) error { return c.DeleteService(ctx, s.ID) }})
		},
	}
	cf.register(cmd, true, true, true)
	return cmd
}

func newServicesScaleCmd(e *env) *cobra.Command {
	var cf changeFlags
	var nodes, storage int
	var size string
	cmd := &cobra.Command{
		Use:   "scale SERVICE --nodes N | --size SIZE | --storage GB",
		Short: "Change a ready service's nodes, instance size or storage (storage only grows)",
		Long: `Scale a ready service: one of --nodes, --size (one of the sizes listed for
its provider, topology and architecture) or --storage (GB, only upward, one
of the storage sizes listed for its topology). The service is
pending_scale, then ready; --wait follows it there.

  skytui services scale orders-prod --size sky-4x16 --wait
  skytui services scale orders-prod --storage 200` + scriptHelpTail,
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: e.completeServiceArg,
		RunE: func(cmd *cobra.Command, args []string) error {
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
						return usageErrf("--nodes %d: %s already has %d nodes (nothing was sent)", nodes, s.NameOrID(), nodes)
					}
					return nil
				}
				run.send = func(ctx context.Context, c *api.Client, s *api.Service) error { return c.SetNodes(ctx, s.ID, nodes) }
			case cmd.Flags().Changed("size"):
				run.check = func(ctx context.Context, c *api.Client, s *api.Service) error {
					sizes, err := c.ListSizes(ctx, s.Provider, s.Topology, s.Architecture)
					if err != nil {
						return err
					}
					var names []string
					for _, z := range sizes {
						names = append(names, z.Name)
					}
					switch {
					case size == s.Size:
						return usageErrf("--size %s: %s is already %s (nothing was sent)", size, s.NameOrID(), size)
					case len(names) > 0 && !slices.Contains(names, size):
						return usageErrf("--size %s: not offered for %s on %s; choose one of %s (nothing was sent)", size, s.Topology, s.Provider, strings.Join(names, ", "))
					}
					return nil
				}
				run.send = func(ctx context.Context, c *api.Client, s *api.Service) error { return c.SetSize(ctx, s.ID, size) }
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
						return err
					}
					if choices := api.StorageChoices(listing, cur); len(listing) > 0 && !slices.Contains(choices, storage) {
						words := make([]string, len(choices))
						for i, gb := range choices {
							words[i] = strconv.Itoa(gb)
						}
						return usageErrf("--storage %d: not offered for %s; choose one of %s GB (nothing was sent)", storage, s.Topology, orWord(strings.Join(words, ", "), "none larger"))
					}
					return nil
				}
				run.send = func(ctx context.Context, c *api.Client, s *api.Service) error {
					return c.SetStorageSize(ctx, s.ID, storage)
				}
			}
			return e.runLifecycle(cmd, args[0], run)
		},
	}
	fl := cmd.Flags()
	fl.IntVar(&nodes, "nodes", 0, "the new number of nodes")
	fl.StringVar(&size, "size", "", "the new instance size, such as sky-4x16")
	fl.IntVar(&storage, "storage", 0, "the new storage size in GB (only larger)")
	cf.register(cmd, false, false, true)
	return cmd
}

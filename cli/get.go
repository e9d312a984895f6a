package cli

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The read-only commands for scripts and runbooks: services, backups,
// schedules and restores, listed or read, as a table, a wide table or the
// API's records in JSON. Exit status 0 ok, 1 failed, 2 usage, 4 not found.

// scriptCmds are the nouns of the commands for scripts.
func scriptCmds(e *env) []*cobra.Command {
	return []*cobra.Command{newServicesCmd(e), newBackupsCmd(e), newSchedulesCmd(e), newRestoresCmd(e)}
}

const scriptHelpTail = `

Output: an aligned table (-o table, the default), more columns (-o wide),
or the API's records as one JSON document (-o json: an array for a list,
an object for get). --no-headers leaves out a table's header line.

Exit status: 0 ok, 1 failed (API error, network), 2 usage (bad flag,
argument or -o value), 4 not found (unknown service or restore).
Errors go to standard error, one line; nothing goes to standard output then.`

// newNoun makes a noun command: it only holds its verbs and the shared flags.
func newNoun(use, short string, f *outputFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Long:  short + "." + scriptHelpTail,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageErrf("unknown command %q for %q", args[0], cmd.CommandPath())
			}
			return cmd.Help()
		},
	}
	f.register(cmd)
	return cmd
}

// scriptClient opens the session as the TUI does (profile, --api-url,
// keystore or SKYSQL_API_KEY) and returns its client. Nothing is prompted
// for but an encrypted secrets file's passphrase.
func (e *env) scriptClient(f *outputFlags) (*api.Client, error) {
	if err := f.validate(); err != nil {
		return nil, err
	}
	s, err := e.openSession(f.profile, f.apiURL)
	if err != nil {
		return nil, err
	}
	key, _, err := s.apiKey()
	if err != nil {
		return nil, err
	}
	return s.client(key, e.version, slog.New(slog.DiscardHandler))
}

// checkServiceArg refuses, before anything is sent, what can be neither a
// service ID nor a service name.
func checkServiceArg(what, arg string) error {
	if api.ValidateServiceID(arg) == nil {
		return nil
	}
	if err := api.ValidateServiceName(arg); err != nil {
		return usageErrf("%s %q is neither a service ID nor a service name (%v)", what, arg, err)
	}
	return nil
}

// resolveService finds a service by exact ID, else by exact name.
func resolveService(svcs []api.Service, arg string) (*api.Service, error) {
	for i := range svcs {
		if svcs[i].ID == arg {
			return &svcs[i], nil
		}
	}
	var found []*api.Service
	for i := range svcs {
		if svcs[i].Name == arg {
			found = append(found, &svcs[i])
		}
	}
	switch len(found) {
	case 0:
		return nil, notFoundErrf("no service named %q", arg)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, s := range found {
		ids[i] = s.ID
	}
	return nil, usageErrf("%d services are named %q (%s): give the ID", len(found), arg, strings.Join(ids, ", "))
}

// serviceNames maps service IDs to names, for the tables.
func serviceNames(svcs []api.Service) map[string]string {
	m := make(map[string]string, len(svcs))
	for _, s := range svcs {
		m[s.ID] = s.Name
	}
	return m
}

func nameOf(names map[string]string, id, given string) string {
	switch {
	case given != "":
		return given
	case names[id] != "":
		return names[id]
	}
	return id
}

// nonNil makes an empty list encode as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// ---- services ----

func newServicesCmd(e *env) *cobra.Command {
	var f outputFlags
	cmd := newNoun("services", "List services or read one", &f)
	list := &cobra.Command{
		Use:   "list",
		Short: "List every service",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := e.scriptClient(&f)
			if err != nil {
				return err
			}
			svcs, err := c.ListServices(cmd.Context())
			if err != nil {
				return err
			}
			return f.emit(e.stdout, nonNil(svcs), servicesTable(svcs))
		},
	}
	get := &cobra.Command{
		Use:   "get SERVICE",
		Short: "Read one service, by name or ID",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkServiceArg("service", args[0]); err != nil {
				return err
			}
			c, err := e.scriptClient(&f)
			if err != nil {
				return err
			}
			svcs, err := c.ListServices(cmd.Context())
			if err != nil {
				return err
			}
			s, err := resolveService(svcs, args[0])
			if err != nil {
				return err
			}
			return f.emit(e.stdout, s, servicesTable([]api.Service{*s}))
		},
	}
	cmd.AddCommand(list, get)
	return cmd
}

func servicesTable(svcs []api.Service) *table {
	t := &table{
		head:     []string{"NAME", "ID", "STATUS", "PROVIDER/REGION", "SIZE", "NODES"},
		wideHead: []string{"TOPOLOGY", "VERSION", "FQDN", "CREATED"},
	}
	for _, s := range svcs {
		where := strings.Trim(s.Provider+"/"+s.Region, "/")
		nodes := ""
		if s.Nodes > 0 {
			nodes = strconv.Itoa(s.Nodes)
		}
		t.add(s.Name, s.ID, s.Status, where, s.Size, nodes,
			s.Topology, s.Version, s.FQDN, unixTime(s.CreatedOn))
	}
	return t
}

// ---- backups ----

func newBackupsCmd(e *env) *cobra.Command {
	var f outputFlags
	var service, status string
	cmd := newNoun("backups", "List backups", &f)
	list := &cobra.Command{
		Use:   "list",
		Short: "List the backups of a service, or of every service",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("service") {
				if err := checkServiceArg("--service", service); err != nil {
					return err
				}
			}
			if cmd.Flags().Changed("status") && strings.TrimSpace(status) == "" {
				return usageErrf("--status: give a status such as succeeded, failed or running")
			}
			c, err := e.scriptClient(&f)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			svcs, err := c.ListServices(ctx)
			if err != nil {
				return err
			}
			var backups []api.Backup
			if cmd.Flags().Changed("service") {
				s, err := resolveService(svcs, service)
				if err != nil {
					return err
				}
				backups, err = c.ListBackups(ctx, s.ID)
				if err != nil {
					return err
				}
			} else {
				ids := make([]string, 0, len(svcs))
				for _, s := range svcs {
					if s.ID != "" {
						ids = append(ids, s.ID)
					}
				}
				if backups, err = c.ListAllBackups(ctx, ids); err != nil {
					return err
				}
			}
			if status != "" {
				kept := backups[:0]
				for _, b := range backups {
					if api.StatusIs(b.Status, status) {
						kept = append(kept, b)
					}
				}
				backups = kept
			}
			return f.emit(e.stdout, nonNil(backups), backupsTable(backups, serviceNames(svcs)))
		},
	}
	list.Flags().StringVar(&service, "service", "", "the service, by name or ID (default: every service)")
	list.Flags().StringVar(&status, "status", "", "only backups of this status (case and - or _ do not matter)")
	cmd.AddCommand(list)
	return cmd
}

func backupsTable(backups []api.Backup, names map[string]string) *table {
	t := &table{
		head:     []string{"SERVICE", "KEY", "TYPE", "STATUS", "STARTED", "SIZE"},
		wideHead: []string{"FULL KEY", "ENDED", "GTID", "BINLOG"},
	}
	for _, b := range backups {
		binlog := b.BinlogFile
		if binlog != "" && b.BinlogPosition != "" {
			binlog += ":" + string(b.BinlogPosition)
		}
		t.add(nameOf(names, b.ServiceID, b.ServiceName), api.ShortKey(b.Key), b.Type, b.Status, apiTime(b.StartTime), kit.HumanBytes(b.SizeBytes),
			b.Key, apiTime(b.EndTime), b.BinlogGTIDPosition, binlog)
	}
	return t
}

// ---- schedules ----

func newSchedulesCmd(e *env) *cobra.Command {
	var f outputFlags
	var service string
	cmd := newNoun("schedules", "List backup schedules", &f)
	list := &cobra.Command{
		Use:   "list --service SERVICE",
		Short: "List the backup schedules of a service",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("service") {
				return usageErrf("--service is required: schedules are listed per service")
			}
			if err := checkServiceArg("--service", service); err != nil {
				return err
			}
			c, err := e.scriptClient(&f)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			svcs, err := c.ListServices(ctx)
			if err != nil {
				return err
			}
			s, err := resolveService(svcs, service)
			if err != nil {
				return err
			}
			scheds, err := c.ListSchedules(ctx, s.ID)
			if err != nil {
				return err
			}
			return f.emit(e.stdout, nonNil(scheds), schedulesTable(scheds))
		},
	}
	list.Flags().StringVar(&service, "service", "", "the service, by name or ID (required)")
	cmd.AddCommand(list)
	return cmd
}

func schedulesTable(scheds []api.Schedule) *table {
	t := &table{
		head:     []string{"ID", "TYPE", "SCHEDULE", "STATUS", "SUSPENDED"},
		wideHead: []string{"CREATED", "NEXT", "MESSAGE"},
	}
	for _, s := range scheds {
		suspended := "no"
		if s.Suspended {
			suspended = "yes"
		}
		t.add(strconv.FormatInt(int64(s.ID), 10), s.Type, s.Expression(), s.Status, suspended,
			apiTime(s.CreatedAt), apiTime(s.ScheduledAt), s.Message)
	}
	return t
}

// ---- restores ----

func newRestoresCmd(e *env) *cobra.Command {
	var f outputFlags
	var service string
	cmd := newNoun("restores", "List restores or read one", &f)
	list := &cobra.Command{
		Use:   "list",
		Short: "List the restores of a service, or of every service",
		Args:  usageArgs(cobra.NoArgs),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if cmd.Flags().Changed("service") {
				if err := checkServiceArg("--service", service); err != nil {
					return err
				}
			}
			c, err := e.scriptClient(&f)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			svcs, err := c.ListServices(ctx)
			if err != nil {
				return err
			}
			var restores []api.Restore
			if cmd.Flags().Changed("service") {
				s, err := resolveService(svcs, service)
				if err != nil {
					return err
				}
				if restores, err = c.ListRestores(ctx, s.ID); err != nil {
					return err
				}
			} else {
				ids := make([]string, 0, len(svcs))
				for _, s := range svcs {
					if s.ID != "" {
						ids = append(ids, s.ID)
					}
				}
				// one listing on the interface prefix, one per service
				// on the live one
				if restores, err = (&api.RestoreSweep{}).List(ctx, c, ids, true); err != nil {
					return err
				}
			}
			return f.emit(e.stdout, nonNil(restores), restoresTable(restores, serviceNames(svcs)))
		},
	}
	list.Flags().StringVar(&service, "service", "", "the service restored to, by name or ID (default: every service)")
	get := &cobra.Command{
		Use:   "get ID",
		Short: "Read one restore by its ID",
		Args:  usageArgs(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := strconv.ParseInt(args[0], 10, 64)
			if err != nil || id <= 0 {
				return usageErrf("restore ID %q: must be a positive number", args[0])
			}
			c, err := e.scriptClient(&f)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			r, err := c.GetRestore(ctx, id)
			if api.IsNotFound(err) {
				return &exitError{code: exitNotFound, err: err}
			}
			if err != nil {
				return err
			}
			// the target's name for the table; the restore is shown
			// without it if the listing fails
			var names map[string]string
			if f.output != outJSON {
				if svcs, err := c.ListServices(ctx); err == nil {
					names = serviceNames(svcs)
				} else if errors.Is(err, context.Canceled) {
					return err
				}
			}
			return f.emit(e.stdout, r, restoresTable([]api.Restore{*r}, names))
		},
	}
	cmd.AddCommand(list, get)
	return cmd
}

func restoresTable(restores []api.Restore, names map[string]string) *table {
	t := &table{
		head:     []string{"ID", "TARGET", "STATUS", "STARTED", "SOURCE"},
		wideHead: []string{"MESSAGE", "TYPE"},
	}
	for _, r := range restores {
		source := r.Bucket
		if r.Key != "" {
			source = api.ShortKey(r.Key)
		}
		t.add(strconv.FormatInt(int64(r.ID), 10), nameOf(names, r.ServiceID, r.ServiceName), r.Status, apiTime(r.CreatedAt), source,
			r.Message, r.Type)
	}
	return t
}

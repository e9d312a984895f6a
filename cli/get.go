package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// The read-only commands for scripts and runbooks: services, backups,
// schedules and restores, listed or read, as a table, a wide table or the
// API's records in JSON. Exit status 0 ok, 1 failed, 2 usage, 3 refused,
// 4 not found (scriptHelpTail says when).

// scriptCmds are the nouns of the commands for scripts, each with its
// verbs; each takes --read-only (wait, which changes nothing, too, so a
// runbook can pass it to every call).
func scriptCmds(e *env) []*cobra.Command {
	nouns := []*cobra.Command{newServicesCmd(e), newBackupsCmd(e), newSchedulesCmd(e), newRestoresCmd(e), newAllowlistCmd(e), newReplicationCmd(e), newWaitCmd(e)}
	for _, noun := range nouns {
		addReadOnlyFlag(noun)
	}
	return nouns
}

const scriptHelpTail = `

Output: an aligned table (-o table, the default), more columns (-o wide),
or the API's records as one JSON document (-o json: an array for a list,
an object for get; every record has all its keys, null, "", 0 or [] when
not known). --no-headers leaves out a table's header line.

Exit status: 0 ok, 1 failed (API error or network, a failed end state,
a timeout, an unknown outcome), 2 usage or validation (a bad flag,
argument, -o value or request field), 3 refused (read-only profile,
--yes or --confirm missing or different), 4 not found (an unknown
service, restore, schedule, backup key or allow-list entry).
Errors go to standard error, one line; nothing goes to standard output then.`

// verb makes a verb of the commands for scripts from what is its own: its
// usage line, its summary, its help ("" for none), the rule for its
// arguments and what it runs. What every verb shares is added: a wrong
// argument is a usage error (exit 2), the help ends with the output
// formats and the exit statuses, and a SERVICE or SECONDARY argument
// completes service names (addCompletions).
func verb(use, short, long string, args cobra.PositionalArgs, run func(*cobra.Command, []string) error) *cobra.Command {
	cmd := &cobra.Command{Use: use, Short: short, Args: usageArgs(args), RunE: run}
	if long != "" {
		cmd.Long = long + scriptHelpTail
	}
	return cmd
}

// serviceListVerb is a list verb with --service (usage says what it
// names), whose run gets the flag's value.
func serviceListVerb(use, short, usage string, run func(cmd *cobra.Command, service string) error) *cobra.Command {
	var service string
	cmd := verb(use, short, "", cobra.NoArgs, func(cmd *cobra.Command, _ []string) error { return run(cmd, service) })
	cmd.Flags().StringVar(&service, "service", "", usage)
	return cmd
}

// newNoun makes a noun command: it only holds its verbs and the shared
// flags, which its verbs read with cmdFlags.
func newNoun(use, short string, verbs ...*cobra.Command) *cobra.Command {
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
	new(outputFlags).register(cmd)
	cmd.AddCommand(verbs...)
	return cmd
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

// argOf is how a command skytui suggests names s: by its name when that
// is a name argument no other service in svcs has (svcs nil: none known
// to share it), else by its ID, which no other service shares: a hint
// never reads, or changes, another service of the same name.
func argOf(s *api.Service, svcs []api.Service) string {
	if s.ID != "" && (s.Name == "" || api.ValidateServiceName(s.Name) != nil) {
		return kit.ShellQuote(s.ID)
	}
	n := 0
	for i := range svcs {
		if svcs[i].Name == s.Name {
			n++
		}
	}
	if n > 1 && s.ID != "" {
		return kit.ShellQuote(s.ID)
	}
	return kit.ShellQuote(s.NameOrID())
}

// arg is argOf with the services this session listed.
func (c *changeSession) arg(s *api.Service) string { return argOf(s, c.svcs) }

// resolveService finds a service by exact ID, else by exact name.
func resolveService(svcs []api.Service, arg string) (*api.Service, error) {
	found := api.ServicesNamed(svcs, arg)
	switch len(found) {
	case 0:
		if api.ValidateServiceID(arg) == nil {
			// it reads as an ID (a name may too)
			return nil, notFoundErrf("no service with the ID or name %q", arg)
		}
		return nil, notFoundErrf("no service named %q", arg)
	case 1:
		return found[0], nil
	}
	return nil, usageErrf("%s: give the ID", api.SharedName(arg, found, false))
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

// serviceIDs are the IDs of the services that have one.
func serviceIDs(svcs []api.Service) []string {
	ids := make([]string, 0, len(svcs))
	for _, s := range svcs {
		if s.ID != "" {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

// serviceFlag checks a command's --service before anything is sent: it
// must be a service ID or name. It reports whether --service was given.
func serviceFlag(cmd *cobra.Command, service string) (bool, error) {
	if !cmd.Flags().Changed("service") {
		return false, nil
	}
	return true, checkServiceArg("--service", service)
}

// requireServiceFlag is serviceFlag for a command that needs --service;
// why follows "--service is required" in the refusal.
func requireServiceFlag(cmd *cobra.Command, service, why string) error {
	given, err := serviceFlag(cmd, service)
	if err == nil && !given {
		return usageErrf("--service is required%s", why)
	}
	return err
}

// readService opens the profile for a read (openRead) and finds the
// service arg names, by name or ID; what names arg in a refusal.
func (e *env) readService(cmd *cobra.Command, what, arg string) (*changeSession, *api.Service, error) {
	c, s, _, err := e.openService(cmd, serviceOp{arg: what}, arg)
	return c, s, err
}

// listPerService is the listing of a list command with an optional
// --service: with one for the service it names, else with all for every
// service. It returns the services too, for their names.
func listPerService[T any](e *env, cmd *cobra.Command, service string,
	one func(*api.Client, context.Context, string) ([]T, error),
	all func(*api.Client, context.Context, []string) ([]T, error),
) (*changeSession, []T, []api.Service, error) {
	given, err := serviceFlag(cmd, service)
	if err != nil {
		return nil, nil, nil, err
	}
	c, err := e.openRead(cmd)
	if err != nil {
		return nil, nil, nil, err
	}
	ctx := cmd.Context()
	svcs, err := c.client.ListServices(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	var list []T
	if given {
		var s *api.Service
		if s, err = resolveService(svcs, service); err != nil {
			return nil, nil, nil, err
		}
		list, err = one(c.client, ctx, s.ID)
	} else {
		list, err = all(c.client, ctx, serviceIDs(svcs))
		var se *api.ServiceError
		if errors.As(err, &se) {
			// the listing of one service failed: say which (its error
			// keeps the status, message and trace ID)
			name := se.ServiceID
			if n := serviceNames(svcs)[se.ServiceID]; n != "" {
				name = n + " (" + se.ServiceID + ")"
			}
			err = fmt.Errorf("listing the %s of %s: %w", cmd.Parent().Name(), name, se.Err)
		}
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return c, list, svcs, nil
}

// parseRestoreID reads a restore ID argument: a positive number.
func parseRestoreID(arg string) (int64, error) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 {
		return 0, usageErrf("restore ID %q: must be a positive number", arg)
	}
	return id, nil
}

// openRecord reads the ID argument of a read of one record (parse: a
// usage error, before anything else) and opens the profile for a read.
func (e *env) openRecord(cmd *cobra.Command, arg string, parse func(string) (int64, error)) (*changeSession, int64, error) {
	id, err := parse(arg)
	if err != nil {
		return nil, 0, err
	}
	c, err := e.openRead(cmd)
	return c, id, err
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
	list := verb("list", "List every service", "", cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
		c, err := e.openRead(cmd)
		if err != nil {
			return err
		}
		svcs, err := c.client.ListServices(cmd.Context())
		if err != nil {
			return err
		}
		return c.out.emit(e.stdout, nonNil(svcs), servicesTable(svcs))
	})
	get := verb("get SERVICE", "Read one service, by name or ID", "", cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		c, s, err := e.readService(cmd, "service", args[0])
		if err != nil {
			return err
		}
		return c.out.emit(e.stdout, s, servicesTable([]api.Service{*s}))
	})
	return newNoun("services", "List, read, create, stop, start, scale or delete services; read their credentials",
		append([]*cobra.Command{list, get, newServicesCreateCmd(e), newServicesCredentialsCmd(e)}, e.lifecycleCmds()...)...)
}

func servicesTable(svcs []api.Service) *table {
	t := &table{
		head:     []string{"NAME", "ID", "STATUS", "PROVIDER/REGION", "SIZE", "NODES"},
		wideHead: []string{"TOPOLOGY", "VERSION", "FQDN", "CREATED", "STORAGE"},
	}
	for _, s := range svcs {
		nodes, storage := "", ""
		if s.Nodes > 0 {
			nodes = strconv.Itoa(s.Nodes)
		}
		if s.StorageVolume != nil && s.StorageVolume.Size > 0 {
			storage = strconv.Itoa(s.StorageVolume.Size) + "GB" // -o json: storage_volume.size
		}
		t.add(s.Name, s.ID, s.Status, s.Where(), s.Size, nodes,
			s.Topology, s.Version, s.FQDN, unixTime(s.CreatedOn), storage)
	}
	return t
}

// ---- backups ----

func newBackupsCmd(e *env) *cobra.Command {
	var status string
	list := serviceListVerb("list", "List the backups of a service, or of every service", "the service, by name or ID (default: every service)", func(cmd *cobra.Command, service string) error {
		if cmd.Flags().Changed("status") && strings.TrimSpace(status) == "" {
			return usageErrf("--status: give a status such as succeeded, failed or running")
		}
		c, backups, svcs, err := listPerService(e, cmd, service, (*api.Client).ListBackups, (*api.Client).ListAllBackups)
		if err != nil {
			return err
		}
		if status != "" {
			// a word of a state (completed, succeeded, done…) keeps every
			// backup in that state, as the UI shows them; another word
			// keeps the backups the API gave exactly that word
			state := api.BackupState(status)
			kept := backups[:0]
			for _, b := range backups {
				if state != "" && api.BackupState(b.Status) == state || state == "" && api.StatusIs(b.Status, status) {
					kept = append(kept, b)
				}
			}
			if state == "" && len(kept) == 0 {
				// a word the API may give that no backup has now: an empty
				// list (a runbook's check goes on), and a note in case it
				// was a typo
				fmt.Fprintf(e.stderr, "skytui: --status %s: no backup has this status now; the states are completed (or succeeded), in progress (or running) and failed\n", status)
			}
			backups = kept
		}
		return c.out.emit(e.stdout, nonNil(backups), backupsTable(backups, serviceNames(svcs)))
	})
	list.Flags().StringVar(&status, "status", "", "only backups of this status: completed (or succeeded), in progress (or running), failed, or another word the API gives; case and - or _ do not matter")
	return newNoun("backups", "List backups or take one", list, newBackupsCreateCmd(e))
}

func backupsTable(backups []api.Backup, names map[string]string) *table {
	t := &table{
		head:     []string{"SERVICE", "KEY", "TYPE", "STATUS", "STARTED", "SIZE"},
		wideHead: []string{"FULL KEY", "ENDED", "GTID", "BINLOG", "STORED"},
	}
	for _, b := range backups {
		binlog := b.BinlogFile
		if binlog != "" && b.BinlogPosition != "" {
			binlog += ":" + string(b.BinlogPosition)
		}
		t.add(nameOf(names, b.ServiceID, b.ServiceName), api.ShortKey(b.Key), b.Type, b.Status, apiTime(b.StartTime), kit.HumanBytes(b.SizeBytes),
			b.Key, apiTime(b.EndTime), b.BinlogGTIDPosition, binlog, b.Stored())
	}
	return t
}

// ---- schedules ----

func newSchedulesCmd(e *env) *cobra.Command {
	list := serviceListVerb("list --service SERVICE", "List the backup schedules of a service", "the service, by name or ID (required)", func(cmd *cobra.Command, service string) error {
		if err := requireServiceFlag(cmd, service, ": schedules are listed per service"); err != nil {
			return err
		}
		c, s, err := e.readService(cmd, "--service", service)
		if err != nil {
			return err
		}
		scheds, err := c.client.ListSchedules(cmd.Context(), s.ID)
		if err != nil {
			return err
		}
		return c.out.emit(e.stdout, nonNil(scheds), schedulesTable(scheds))
	})
	return newNoun("schedules", "List, read, edit, suspend, resume or delete backup schedules", list,
		newSchedulesGetCmd(e), newSchedulesEditCmd(e), newSchedulesDeleteCmd(e))
}

// idText is a record's number, or "-" when the answer gave none (an
// accepted change answered without a record).
func idText(id int64) string {
	if id == 0 {
		return "-"
	}
	return strconv.FormatInt(id, 10)
}

func schedulesTable(scheds []api.Schedule) *table {
	t := &table{
		head:     []string{"ID", "TYPE", "SCHEDULE", "STATUS", "SUSPENDED"},
		wideHead: []string{"CREATED", "NEXT", "MESSAGE", "TARGET"},
	}
	for _, s := range scheds {
		suspended := "no"
		if s.Suspended {
			suspended = "yes"
		}
		t.add(idText(int64(s.ID)), s.Type, s.Expression(), s.Status, suspended,
			apiTime(s.CreatedAt), apiTime(s.ScheduledAt), s.Message, s.TargetText())
	}
	return t
}

// ---- restores ----

func newRestoresCmd(e *env) *cobra.Command {
	list := serviceListVerb("list", "List the restores of a service, or of every service", "the service restored to, by name or ID (default: every service)", func(cmd *cobra.Command, service string) error {
		c, restores, svcs, err := listPerService(e, cmd, service, (*api.Client).ListRestores, sweepRestores)
		if err != nil {
			return err
		}
		// by ID, as `restores get ID` names them (the live service's
		// listings come per service, in its order)
		slices.SortStableFunc(restores, func(a, b api.Restore) int { return cmp.Compare(a.ID, b.ID) })
		return c.out.emit(e.stdout, nonNil(restores), restoresTable(restores, serviceNames(svcs)))
	})
	get := e.newRestoreCmd("get ID", "Read one restore by its ID", func(cmd *cobra.Command, c *api.Client, id int64) (*api.Restore, error) {
		return c.GetRestore(cmd.Context(), id)
	})
	return newNoun("restores", "List, read, start or delete restores", list, get, newRestoresCreateCmd(e), newRestoresDeleteCmd(e))
}

// sweepRestores lists the restores of every service: one listing on the
// interface prefix, one per service on the live one.
func sweepRestores(c *api.Client, ctx context.Context, ids []string) ([]api.Restore, error) {
	return (&api.RestoreSweep{}).List(ctx, c, ids, true)
}

// newRestoreCmd makes a verb that takes a restore ID, reads the restore
// with read and prints it.
func (e *env) newRestoreCmd(use, short string, read func(cmd *cobra.Command, c *api.Client, id int64) (*api.Restore, error)) *cobra.Command {
	return verb(use, short, "", cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		c, id, err := e.openRecord(cmd, args[0], parseRestoreID)
		if err != nil {
			return err
		}
		r, err := read(cmd, c.client, id)
		if err != nil {
			return readErr(err)
		}
		return c.emitRestore(cmd.Context(), e, r)
	})
}

func restoresTable(restores []api.Restore, names map[string]string) *table {
	t := &table{
		head:     []string{"ID", "TARGET", "STATUS", "STARTED", "SOURCE"},
		wideHead: []string{"MESSAGE", "TYPE"},
	}
	for _, r := range restores {
		t.add(idText(int64(r.ID)), nameOf(names, r.ServiceID, r.ServiceName), r.Status, apiTime(r.CreatedAt), restoreSourceText(r),
			r.Message, r.Type)
	}
	return t
}

// restoreSourceText is a restore's source as the table shows it: a
// managed backup by its short key (as `backups list` shows it), a file in
// a bucket whole (gs://acme-exports/orders/dump.sql.gz), anything else as
// the API gave it. Nothing else is shortened.
func restoreSourceText(r api.Restore) string {
	switch {
	case restoreform.KeyService(r.Key) != "":
		return api.ShortKey(r.Key)
	case r.Bucket != "" && r.Key != "":
		return strings.TrimSuffix(r.Bucket, "/") + "/" + strings.TrimPrefix(r.Key, "/")
	case r.Bucket != "":
		return r.Bucket
	}
	return r.Key
}

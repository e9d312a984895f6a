package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// services create and credentials; allowlist list, add and remove.

// createServiceFlags maps the request's fields to the flags that set them.
var createServiceFlags = map[string]string{
	"name": "--name", "provider": "--provider", "region": "--region", "service_type": "--type",
	"topology": "--topology", "architecture": "--architecture", "size": "--size",
	"storage": "--storage", "nodes": "--nodes", "version": "--version", "allow_list": "--allow",
}

func newServicesCreateCmd(e *env) *cobra.Command {
	var cf changeFlags
	var req api.CreateServiceRequest
	var allow []string
	var allowDup bool
	cmd := cf.verb(withWait|withYes, "create --name NAME --provider P --region R --topology T --size S --storage GB",
		"Launch a service (pending for about 5 minutes; --wait follows it until ready)",
		`Launch a service with the choices the TUI's create form asks for.
Before anything is sent the request is checked; a check that fails exits
2 naming the flag, and nothing is sent:
  - the API's rules: the name's form, the provider (aws, gcp or azure),
    the flags required, the --allow addresses (the field and the rule);
  - the option listings, naming the choices: --type (the service types),
    --topology (the type's topologies), --region (the provider's
    regions), --size (the sizes for the provider, topology and
    architecture), --storage (the topology's storage sizes) and
    --version when given (the topology's versions);
  - --nodes: a single-node topology (es-single, sa,
    serverless-standalone) has one node, es-replica 2 to 5 (without
    --nodes, the topology's least); other counts are the API's to judge;
  - --name: a name another service has is refused, naming its ID, unless
    --allow-duplicate-name (commands that take a name then need the ID).
A listing that cannot be read is said on standard error and its check is
left to the API. An --allow network wider than /16 (IPv6: /48), such as
0.0.0.0/0, needs --yes, as with allowlist add (exit 3 without it,
nothing sent).

  skytui services create --name orders-stage --provider aws --region us-east-1 \
    --topology es-single --size sky-2x8 --storage 100 --allow 203.0.113.7 --wait`,
		cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
			req.Name = strings.TrimSpace(req.Name)
			req.AllowList = nil
			for _, a := range allow {
				for _, ip := range strings.FieldsFunc(a, func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
					req.AllowList = append(req.AllowList, api.AllowListEntry{IP: api.NormalizeAllowListIP(ip)})
				}
			}
			if !cmd.Flags().Changed("nodes") {
				// not given: the topology's least (es-replica 2), as the form's
				req.Nodes = 1
				if lo, _, known := api.NodeRange(req.Topology); known {
					req.Nodes = lo
				}
			}
			if err := req.Validate(); err != nil {
				return requestErr(err, createServiceFlags)
			}
			c, err := e.openChange(cmd, &cf, "services create")
			if err != nil {
				return err
			}
			if err := wideAllow(&cf, "services create", "create the service with it", req.AllowList); err != nil {
				return err
			}
			ctx := cmd.Context()
			before, err := e.checkCreate(ctx, c.client, req, allowDup)
			if err != nil {
				return err
			}
			// a name another service has too is no way to check on the
			// new one: its ID, once known, else the listing
			check := "skytui services get " + kit.ShellQuote(req.Name)
			byID := func(id string) {
				if allowDup && id != "" {
					check = "skytui services get " + id
				}
			}
			if allowDup {
				check = "skytui services list"
			}
			s, err := c.client.CreateService(ctx, req)
			if err := e.answered(s, err, createServiceFlags, check); err != nil {
				return err
			}
			byID(s.ID)
			if cf.wait {
				id := s.ID
				if id == "" { // the answer was not read: find it in the listing
					if id, err = e.findCreated(ctx, c.client, req.Name, before, cf.poll); err != nil {
						return err
					}
				}
				byID(id)
				w := e.newWaiter(&cf, req.Name, check)
				if s, err = w.waitService(ctx, c.client, id, forReady); err != nil {
					return err
				}
			}
			return c.out.emitAnswer(e.stdout, s, servicesTable([]api.Service{*s}), check,
				map[string]any{"name": req.Name, "provider": req.Provider, "region": req.Region, "topology": req.Topology})
		})
	fl := cmd.Flags()
	fl.StringVar(&req.Name, "name", "", "the service's name, 4 to 24 characters (required)")
	fl.StringVar(&req.Provider, "provider", "", "cloud provider: aws, gcp or azure (required)")
	fl.StringVar(&req.Region, "region", "", "region of the provider, such as us-east-1 (required)")
	fl.StringVar(&req.ServiceType, "type", "transactional", "service type")
	fl.StringVar(&req.Topology, "topology", "", "topology, such as es-single or es-replica (required)")
	fl.StringVar(&req.Architecture, "architecture", "amd64", "hardware architecture: amd64 or arm64")
	fl.StringVar(&req.Size, "size", "", "instance size, such as sky-2x8 (required)")
	fl.IntVar(&req.Storage, "storage", 0, "storage size in GB (required)")
	fl.IntVar(&req.Nodes, "nodes", 0, "number of nodes (default: the topology's least, 2 for es-replica, else 1)")
	fl.StringVar(&req.Version, "version", "", "software version (default: the API's default)")
	fl.BoolVar(&req.SSLEnabled, "ssl", true, "SSL for connections (--ssl=false turns it off)")
	fl.StringSliceVar(&allow, "allow", nil, "an address or CIDR network allowed to connect (repeat or separate with commas)")
	fl.Lookup("yes").Usage = "confirm an --allow network wider than /16 (IPv6: /48), such as 0.0.0.0/0"
	fl.BoolVar(&allowDup, "allow-duplicate-name", false, "create it though another service has that name already")
	return cmd
}

// checkCreate checks a create request against the option listings and
// the services there are, before it is sent: a choice not offered, more
// than one node on a single-node topology, or a name another service has
// (unless allowDup) is a usage error, nothing sent. A listing that cannot
// be read is said on stderr and its check left to the API; so is an empty
// one (offered).
//
// It returns the IDs of the services that have the name already (nil when
// the services could not be read), so that a create whose answer cannot be
// read can tell the new service from them.
// unread says on stderr that a listing a check needs could not be read,
// so flag is left to the API to judge, and returns nil: the command goes
// on. An interrupt is returned instead (the command ends).
func (e *env) unread(ctx context.Context, command, what, flag string, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	fmt.Fprintf(e.stderr, "skytui: %s: the %s could not be read (%s); %s is not checked here: the API judges it\n", command, what, firstLine(err), flag)
	return nil
}

func (e *env) checkCreate(ctx context.Context, c *api.Client, req api.CreateServiceRequest, allowDup bool) (map[string]bool, error) {
	var before map[string]bool
	// read reports whether a listing was read; one that was not is said on
	// stderr (and an interrupt ends the command)
	var stop error
	read := func(what, flag string, err error) bool {
		switch {
		case err == nil:
			return true
		case flag == "--name" && ctx.Err() == nil:
			fmt.Fprintf(e.stderr, "skytui: services create: the %s could not be read (%s); --name is not checked against them\n", what, firstLine(err))
		default:
			stop = e.unread(ctx, "services create", what, flag, err)
		}
		return false
	}
	check := func() error {
		if types, err := c.ListServiceTypes(ctx); read("service types", "--type", err) {
			names := make([]string, 0, len(types))
			for _, t := range types {
				names = append(names, t.Name)
			}
			if err := offered("--type", req.ServiceType, "", names, ""); err != nil {
				return err
			}
		}
		if topos, err := c.ListTopologies(ctx, req.ServiceType); read("topologies of "+req.ServiceType, "--topology", err) {
			names := namesOf(topos, func(o api.Topology) string { return o.Name })
			if err := offered("--topology", req.Topology, "service type "+req.ServiceType, names, ""); err != nil {
				return err
			}
		}
		if err := checkNodes(req.Nodes, req.Topology); err != nil {
			return err
		}
		if regions, err := c.ListRegions(ctx, req.Provider); read("regions of "+req.Provider, "--region", err) {
			names := namesOf(regions, func(o api.Region) string { return o.Name })
			if err := offered("--region", req.Region, req.Provider, names, ""); err != nil {
				return err
			}
		}
		if sizes, err := c.ListSizes(ctx, req.Provider, req.Topology, req.Architecture); read("sizes", "--size", err) {
			if err := offered("--size", req.Size, req.Topology+" on "+req.Provider+" ("+req.Architecture+")", sizeNames(sizes), ""); err != nil {
				return err
			}
		}
		if listing, err := c.ListStorageSizes(ctx, req.Topology); read("storage sizes of "+req.Topology, "--storage", err) {
			if err := offered("--storage", strconv.Itoa(req.Storage), req.Topology, intWords(api.StorageChoices(listing, 0)), "GB"); err != nil {
				return err
			}
		}
		if req.Version != "" {
			if versions, err := c.ListVersions(ctx, req.Topology); read("versions of "+req.Topology, "--version", err) {
				names := namesOf(versions, func(o api.Version) string { return o.Name })
				if err := offered("--version", req.Version, req.Topology, names, ""); err != nil {
					return err
				}
			}
		}
		svcs, err := c.ListServices(ctx)
		if allowDup && err != nil && ctx.Err() == nil {
			return nil // no name to check; the new service is then told by its name alone
		}
		if !read("services", "--name", err) {
			return nil
		}
		before = map[string]bool{}
		for _, s := range svcs {
			if !strings.EqualFold(strings.TrimSpace(s.Name), req.Name) {
				continue
			}
			if !allowDup {
				return usageErrf("--name %s: service %s is named %s already, and commands that take a name would then need the ID; pass --allow-duplicate-name to create another (nothing was sent)", req.Name, s.ID, s.Name)
			}
			before[s.ID] = true
		}
		return nil
	}
	if err := check(); err != nil {
		return nil, err
	}
	return before, stop
}

// findCreated finds the service a create made whose answer could not be
// read: the one named name that is not among before (the services that
// had the name already; nil when they could not be read, and then the
// name must be the only one). The listing may lag behind the create, so it
// is read every poll for up to a minute. A service that cannot be told
// apart is an error that says the create was accepted and how to follow it.
func (e *env) findCreated(ctx context.Context, c *api.Client, name string, before map[string]bool, poll time.Duration) (string, error) {
	begin := time.Now()
	for {
		svcs, err := c.ListServices(ctx)
		var ids []string
		for _, s := range svcs {
			if strings.EqualFold(strings.TrimSpace(s.Name), name) && !before[s.ID] {
				ids = append(ids, s.ID)
			}
		}
		switch {
		case ctx.Err() != nil:
			return "", ctx.Err()
		case err == nil && len(ids) == 1:
			return ids[0], nil
		case err == nil && len(ids) > 1:
			return "", fmt.Errorf("the create was accepted, but its answer could not be read and %d services named %s are new to the listing (%s): wait for yours with `skytui wait service ID`", len(ids), name, strings.Join(ids, ", "))
		case time.Since(begin) >= changeSettles:
			why := "it is not in the listing yet"
			if err != nil {
				why = "the services could not be read: " + firstLine(err)
			}
			return "", fmt.Errorf("the create was accepted, but its answer could not be read and %s: check with `skytui services list` before creating it again", why)
		}
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(max(poll, 10*time.Millisecond)):
		}
	}
}

// wideAllow refuses, unless --yes, an allow-list entry that opens a service
// to a large part of the internet (api.WideNetwork), as allowlist add and
// the TUI's allow list do: exit 3, nothing sent. act is what --yes does
// ("add it").
func wideAllow(cf *changeFlags, what, act string, entries []api.AllowListEntry) error {
	if cf.yes {
		return nil
	}
	for _, a := range entries {
		if wide := api.WideNetwork(a.IP); wide != "" {
			return refusedErrf("%s: %s; pass --yes to %s anyway (nothing was sent)", what, wide, act)
		}
	}
	return nil
}

// credentialsRecord is what `services credentials -o json` prints: what
// the table shows, a client's connection settings (the host, else the
// service's FQDN; the readwrite port; whether SSL is on), with the
// password in clear.
type credentialsRecord struct {
	Service    string `json:"service"`
	ServiceID  string `json:"service_id"`
	Host       string `json:"host"`
	Port       int    `json:"port,omitempty"`
	Username   string `json:"username"`
	Password   string `json:"password"`
	SSLEnabled bool   `json:"ssl_enabled"`
}

func newServicesCredentialsCmd(e *env) *cobra.Command {
	var show bool
	cmd := verb("credentials SERVICE",
		"Read a ready service's default username and password (masked unless --show-password)",
		`Read a ready service's default credentials: host, port, username,
password and whether SSL is on. The password is masked unless
--show-password. -o json (service, service_id, host, port, username,
password, ssl_enabled) carries the password in clear, so it is written
only when standard output is not a terminal (a pipe, a file) or with
--show-password:

  PW=$(skytui services credentials orders-prod -o json | jq -r .password)`,
		cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
			if err := checkServiceArg("service", args[0]); err != nil {
				return err
			}
			f := cmdFlags(cmd)
			if f.output == outJSON && !show && isTerminal(e.stdout) {
				return refusedErrf("-o json prints the password in clear: pipe it to a program, or pass --show-password to print it on this terminal")
			}
			c, s, err := e.readService(cmd, "service", args[0])
			if err != nil {
				return err
			}
			// the way to a ready service, where there is one: a failed
			// service will not become ready, a stopped one once started
			name := c.arg(s)
			switch {
			case s.Ready():
			case api.StatusIs(s.Status, "failed"):
				return fmt.Errorf("%s; it has no credentials to read", failedText(s))
			case api.StatusIs(s.Status, "stopped") && (c.profile.ReadOnly || readOnlyFlag(cmd)):
				// the start is a change this run refuses: said, not offered
				return fmt.Errorf("%s is stopped: its credentials can be read once it is started, from a profile that is not read-only", s.NameOrID())
			case api.StatusIs(s.Status, "stopped"):
				return fmt.Errorf("%s is stopped: its credentials can be read once it is started (`skytui services start %s --wait`)", s.NameOrID(), name)
			default:
				return fmt.Errorf("%s is %s: its credentials exist once it is ready (`skytui wait service %s --for ready`)", s.NameOrID(), kit.Or(s.Status, "not ready"), name)
			}
			cr, err := c.client.GetCredentials(cmd.Context(), s.ID)
			if err != nil {
				return readErr(err)
			}
			pw := strings.Repeat("*", min(12, max(8, len([]rune(cr.Password)))))
			if show {
				pw = cr.Password
			}
			host := cr.Host
			if host == "" {
				host = s.FQDN
			}
			port := ""
			if p := s.ReadWritePort(); p > 0 {
				port = strconv.Itoa(p)
			}
			ssl := "off"
			if s.SSLEnabled {
				ssl = "on"
			}
			t := &table{head: []string{"SERVICE", "HOST", "PORT", "USERNAME", "PASSWORD", "SSL"}}
			t.add(s.NameOrID(), host, port, cr.Username, pw, ssl)
			rec := credentialsRecord{Service: s.Name, ServiceID: s.ID, Host: host, Port: s.ReadWritePort(),
				Username: cr.Username, Password: cr.Password, SSLEnabled: s.SSLEnabled}
			return c.out.emit(e.stdout, rec, t)
		})
	cmd.Flags().BoolVar(&show, "show-password", false, "show the password in clear")
	return cmd
}

// ---- allowlist ----

func newAllowlistCmd(e *env) *cobra.Command {
	list := verb("list SERVICE", "List a service's allow list", "", cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		c, s, err := e.readService(cmd, "service", args[0])
		if err != nil {
			return err
		}
		groups, err := c.client.GetAllowList(cmd.Context(), s.ID)
		if err != nil {
			return readErr(err)
		}
		return c.out.emit(e.stdout, nonNil(groups), allowTable(groups))
	})
	add := e.newAllowChangeCmd("add SERVICE CIDR", "Allow an address or CIDR network to connect (a bare address becomes /32)", true)
	rm := e.newAllowChangeCmd("remove SERVICE CIDR --yes", "Remove an address or network from the allow list (needs --yes)", false)
	return newNoun("allowlist", "List, add or remove the addresses allowed to connect to a service", list, add, rm)
}

// newAllowChangeCmd makes allowlist add (add) or remove, which is
// destructive: it needs --yes.
func (e *env) newAllowChangeCmd(use, short string, add bool) *cobra.Command {
	var cf changeFlags
	var comment string
	cmd := cf.verb(withYes, use, short, "", cobra.ExactArgs(2), func(cmd *cobra.Command, args []string) error {
		return e.allowChange(cmd, &cf, args, add, comment)
	})
	if add {
		cmd.Flags().Lookup("yes").Usage = "confirm adding a network wider than /16 (IPv6: /48), such as 0.0.0.0/0, or replacing a listed address's comment"
		cmd.Flags().StringVar(&comment, "comment", "", "a comment for the entry (the list is read and put back whole: POST takes none); on a listed address, its new comment")
	}
	return cmd
}

func (e *env) allowChange(cmd *cobra.Command, cf *changeFlags, args []string, add bool, comment string) error {
	what := "allowlist remove"
	if add {
		what = "allowlist add"
	}
	if err := checkServiceArg("service", args[0]); err != nil {
		return err
	}
	if err := api.ValidateAllowListIP(args[1]); err != nil {
		return requestErr(err, map[string]string{"ip": "CIDR"})
	}
	ip := api.NormalizeAllowListIP(args[1])
	c, err := e.openChange(cmd, cf, what)
	if err != nil {
		return err
	}
	if !add {
		if err := needYes(cf, what); err != nil {
			return err
		}
	} else if err := wideAllow(cf, what, "add it", []api.AllowListEntry{{IP: ip}}); err != nil {
		return err
	}
	ctx := cmd.Context()
	s, _, err := c.serviceByArg(cmd, "service", args[0])
	if err != nil {
		return err
	}
	check := "skytui allowlist list " + c.arg(s)
	listed, err := c.client.GetAllowList(ctx, s.ID)
	if err != nil {
		return err
	}
	had, ok := allowEntry(listed, ip)
	switch {
	case !add && !ok:
		return notFoundErrf("%s is not in the allow list of %s", ip, s.NameOrID())
	case add && ok && (comment == "" || comment == had.Comment):
		// as the TUI: nothing to send (the API would refuse it, 409)
		fmt.Fprintf(e.stderr, "skytui: %s is in the allow list of %s already: nothing was sent\n", ip, s.NameOrID())
		return c.out.emit(e.stdout, nonNil(listed), allowTable(listed))
	case add && ok && had.Comment != "" && !cf.yes:
		return refusedErrf("%s: %s is listed with the comment %q: pass --yes to replace it with %q (nothing was sent)", what, ip, had.Comment, comment)
	}
	var groups []api.AllowListGroup
	switch {
	case add && comment != "":
		groups, err = c.client.SetAllowListComment(ctx, s.ID, ip, comment)
	case add:
		groups, err = c.client.AddAllowListEntry(ctx, s.ID, ip)
	default:
		groups, err = c.client.RemoveAllowListEntry(ctx, s.ID, had.IP) // as listed
	}
	if errors.Is(err, api.ErrAllowListsDiffer) {
		return &exitError{code: exitRefused, err: err} // nothing was sent but the read
	}
	if err != nil {
		return sentErr(err, check)
	}
	if groups == nil {
		// accepted; the answer was not read (or was empty): read the list
		if groups, err = c.client.GetAllowList(ctx, s.ID); err != nil {
			return e.notReadAgain(c, "accepted; the allow list could not be read again: "+firstLine(err),
				check, map[string]any{"service": s.NameOrID(), "service_id": s.ID, "ip": ip})
		}
	}
	return c.out.emit(e.stdout, nonNil(groups), allowTable(groups))
}

// allowEntry is the entry of groups for ip (normalized), and whether
// there is one.
func allowEntry(groups []api.AllowListGroup, ip string) (api.AllowListEntry, bool) {
	for _, g := range groups {
		for _, a := range g.AllowList {
			if api.NormalizeAllowListIP(a.IP) == ip {
				return a, true
			}
		}
	}
	return api.AllowListEntry{}, false
}

func allowTable(groups []api.AllowListGroup) *table {
	t := &table{head: []string{"IP", "COMMENT"}, wideHead: []string{"ENDPOINT"}}
	for _, g := range groups {
		for _, a := range g.AllowList {
			t.add(a.IP, a.Comment, g.Name)
		}
	}
	return t
}

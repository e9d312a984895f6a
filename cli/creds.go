package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
)

func newCredsCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "creds",
		Short: "Store, list and remove named bucket credentials (GCS and S3)",
		Long: `Bucket credentials let backups go to your own bucket and restores read
from it. They are kept in the keystore, raw, and base64-encoded only when
sent. Secrets are read without echo, never from the command line.`,
	}
	var keyFile, accessKeyID, region string
	var replace bool
	// kind is a `creds add KIND NAME` command: NAME is checked by the
	// keystore's rule before anything else
	kind := func(use, short string, run func(name string) error) *cobra.Command {
		return &cobra.Command{Use: use, Short: short, Args: cobra.ExactArgs(1),
			RunE: func(_ *cobra.Command, args []string) error {
				if err := checkCredName(args[0]); err != nil {
					return err
				}
				return run(args[0])
			}}
	}
	gcs := kind("gcs NAME --key-file FILE", "Import a GCS service-account JSON key file",
		func(name string) error {
			if keyFile == "" {
				return usageErrf("--key-file is required: the service account's JSON key file")
			}
			doc, err := os.ReadFile(keyFile)
			if err != nil {
				return usageErrf("--key-file: %v", err)
			}
			st, err := e.credStore(name, replace)
			if err != nil {
				return err
			}
			return e.putCred(st, keystore.GCSCredential{Name: name, KeyJSON: doc})
		})
	gcs.Flags().StringVar(&keyFile, "key-file", "", "service-account JSON key file (needs the Storage Admin role)")
	s3 := kind("s3 NAME", "Store an S3 access key (the secret is read without echo)",
		func(name string) error {
			p := e.prompter()
			// piped, standard input holds the secret alone: the access key
			// ID and the region come from their flags, so that no order of
			// lines can put the secret where a shown value goes
			if !p.terminal() {
				for _, f := range []struct{ flag, v string }{{"--access-key-id", accessKeyID}, {"--region", region}} {
					if f.v == "" {
						return usageErrf("%s is required when standard input is not a terminal: only the secret access key is read from it (nothing was stored)", f.flag)
					}
				}
			}
			// the flags given are checked before anything is read
			if accessKeyID != "" {
				if err := checkAccessKeyID(accessKeyID, false); err != nil {
					return err
				}
			}
			if region != "" {
				if err := checkRegion(region, false); err != nil {
					return err
				}
			}
			// a name in use is refused before anything is asked
			st, err := e.credStore(name, replace)
			if err != nil {
				return err
			}
			if accessKeyID, err = askUnless(p, accessKeyID, "Access key ID", checkAccessKeyID); err != nil {
				return err
			}
			secret, err := p.Secret("Secret access key")
			if errors.Is(err, errNoInput) {
				return usageErrf("no secret access key on standard input (nothing was stored)")
			}
			if err != nil {
				return err
			}
			if region, err = askUnless(p, region, "Region (e.g. us-east-1)", checkRegion); err != nil {
				return err
			}
			return e.putCred(st, keystore.S3Credential{Name: name, AccessKeyID: accessKeyID, SecretAccessKey: secret, Region: region})
		})
	s3.Long = `Store an S3 access key under NAME. The secret access key is read without
echo at the terminal, and never from the command line. At a terminal, the
access key ID and the region are asked when their flags are left out.

When standard input is not a terminal, it holds the secret alone (one
line), and --access-key-id and --region are required:

  printf '%s\n' "$SECRET" | skytui creds add s3 archive --access-key-id AKIA… --region eu-west-1

An access key ID is 16 to 128 capital letters and digits (AKIA… or ASIA…);
a region is shaped like us-east-1. A value refused is never shown: it may
be the secret.`
	s3.Flags().StringVar(&accessKeyID, "access-key-id", "", "access key ID (asked at a terminal when omitted; required when standard input is not a terminal)")
	s3.Flags().StringVar(&region, "region", "", "region, e.g. eu-west-1 (asked at a terminal when omitted; required when standard input is not a terminal)")

	add := &cobra.Command{Use: "add", Short: "Store a named bucket credential (a name in use needs --replace)"}
	add.PersistentFlags().BoolVar(&replace, "replace", false, "replace the credential stored under NAME (without it, a name in use is refused)")
	add.AddCommand(gcs, s3)

	var listOut string
	var listNoHeaders bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List stored bucket credentials (names, kinds and identities, never secrets)",
		Long: `List stored bucket credentials: name, kind and identity (a GCS key's
client e-mail, an S3 key's access key ID and region), never a secret.

Output: an aligned table (-o table, the default) followed by where the
credentials are kept, or one JSON document (-o json: an array of
{"name", "kind", "client_email" (gcs), "access_key_id" and "region" (s3),
"unreadable": why a stored value cannot be read, "backend": where it is
kept, keyring, keyctl or file}; every key is in every record, "" where it
does not apply). When the credentials
are kept in more than one backend, a STORED IN column says where each is,
instead of the line.
--no-headers leaves out the table's header line and the line after it.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if listOut != outTable && listOut != outJSON {
				return usageErrf("-o %q: must be table or json", listOut)
			}
			return e.listCreds(listOut == outJSON, listNoHeaders)
		},
	}
	list.Flags().StringVarP(&listOut, "output", "o", outTable, "output format: table or json (names, kinds and identities; never secrets)")
	list.Flags().BoolVar(&listNoHeaders, "no-headers", false, "leave out the header line of the table and the line saying where the credentials are kept (for shell loops)")
	remove := &cobra.Command{
		Use:   "remove NAME",
		Short: "Remove a stored bucket credential",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			st, err := e.openStore(e.prompter().Passphrase)
			if err != nil {
				return err
			}
			from, err := st.DeleteBucketCredential(args[0])
			if err != nil {
				switch {
				case errors.Is(err, keystore.ErrNotFound):
					return notFoundErrf("no stored bucket credential %s (see `skytui creds list`)%s", args[0], st.Unread())
				case errors.Is(err, keystore.ErrInvalid):
					return usageErr(err)
				}
				return err
			}
			fmt.Fprintf(e.stdout, "Removed bucket credential %s from %s.\n", args[0], storePlaces(from))
			return nil
		},
	}
	cmd.AddCommand(add, list, remove)
	return cmd
}

// credRecord is a stored bucket credential as `creds list -o json` gives
// it: what identifies it, never its secret.
type credRecord struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	ClientEmail string `json:"client_email,omitempty"`  // gcs
	AccessKeyID string `json:"access_key_id,omitempty"` // s3
	Region      string `json:"region,omitempty"`        // s3
	Unreadable  string `json:"unreadable,omitempty"`    // why the stored value could not be read
	Backend     string `json:"backend"`                 // where it is kept: keyring, keyctl, file
	where       string // that backend's label
}

func (e *env) listCreds(asJSON, noHeaders bool) error {
	st, err := e.openStore(e.prompter().Passphrase)
	if err != nil {
		return err
	}
	infos, err := st.ListBucketCredentials()
	if err != nil {
		return err
	}
	records := make([]credRecord, 0, len(infos))
	for _, in := range infos {
		r := credRecord{Name: in.Name, Kind: in.Kind, Backend: in.Backend, where: in.Where}
		c, err := st.BucketCredential(in.Name)
		switch c := c.(type) {
		case keystore.GCSCredential:
			r.ClientEmail = c.ClientEmail()
		case keystore.S3Credential:
			r.AccessKeyID, r.Region = c.AccessKeyID, c.Region
		}
		if err != nil {
			r.Unreadable = err.Error()
		}
		records = append(records, r)
	}
	if unread := st.Unread(); unread != "" {
		// an encrypted file not read: what it holds is not listed, and a
		// credential added again would be a second copy
		fmt.Fprintf(e.stderr, "skytui: only the credentials of the keystore read are listed%s\n", unread)
	}
	if asJSON {
		return writeJSON(e.stdout, records)
	}
	if len(records) == 0 {
		if !noHeaders {
			fmt.Fprintf(e.stdout, "No bucket credentials in %s. Add one with `skytui creds add gcs NAME --key-file F` or `skytui creds add s3 NAME`.\n", storePlace(st.Backend()))
		}
		return nil
	}
	// kept in one backend, the line under the table says which; in more
	// (the kernel keyring's of an SSH session, the Secret Service's of a
	// desktop one), a column says it for each
	mixed := false
	for _, r := range records {
		mixed = mixed || r.where != records[0].where
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	if !noHeaders {
		head := "NAME\tKIND\tIDENTITY"
		if mixed {
			head += "\tSTORED IN"
		}
		fmt.Fprintln(tw, head)
	}
	for _, r := range records {
		ident := r.ClientEmail
		switch {
		case r.Unreadable != "":
			ident = "unreadable: " + r.Unreadable
		case r.AccessKeyID != "":
			ident = r.AccessKeyID + " (" + r.Region + ")"
		}
		line := fmt.Sprintf("%s\t%s\t%s", cell(r.Name), cell(r.Kind), cell(ident))
		if mixed {
			place, _ := splitLabel(r.where)
			line += "\t" + cell(place)
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	if !noHeaders && !mixed {
		fmt.Fprintf(e.stdout, "(stored in %s)\n", whereLabel(records[0].where))
	}
	return nil
}

// checkCredName refuses a bucket credential name the keystore does not
// take (exit 2), before anything is read or asked.
func checkCredName(name string) error {
	if err := keystore.CheckName("bucket credential", name); err != nil {
		return usageErr(err)
	}
	return nil
}

// checkAccessKeyID and checkRegion check an S3 credential's shown parts,
// from their flag or typed at the prompt: a value refused is a usage error
// (exit 2) without the value, which may be the secret given in the wrong
// place; one from a flag names the flag and says the value is not shown,
// one typed (shown above, as typed) names the answer.
func checkAccessKeyID(id string, typed bool) error {
	if err := keystore.CheckS3AccessKeyID(id); err != nil {
		return partRefused("access key ID", "--access-key-id", typed, err.Error())
	}
	return nil
}

func checkRegion(region string, typed bool) error {
	// the region alone, by the credential's own rule
	if (api.S3Credentials{AccessKeyID: "x", SecretAccessKey: "x", Region: region}).Validate() != nil {
		return partRefused("region", "--region", typed, "not a region: a region is shaped like us-east-1 or eu-west-1")
	}
	return nil
}

// askUnless is v when a flag gave it (checked already), else the answer
// to label, checked as typed.
func askUnless(p *prompter, v, label string, check func(string, bool) error) (string, error) {
	if v != "" {
		return v, nil
	}
	v, err := p.Ask(label)
	if err != nil {
		return "", err
	}
	return v, check(v, true)
}

// partRefused is the refusal of a shown part of a credential (see
// checkAccessKeyID).
func partRefused(what, flag string, typed bool, rule string) error {
	if typed {
		return usageErrf("the %s typed: %s (nothing was stored)", what, rule)
	}
	return usageErrf("%s: %s (the value given is not shown: it may be a secret; nothing was stored)", flag, rule)
}

// credStore opens the keystore for storing the credential name: one
// already stored under that name is replaced only with --replace (as the
// TUI asks "Replace credential NAME?"); without it the change is refused
// (exit 3, nothing stored).
func (e *env) credStore(name string, replace bool) (*keystore.Store, error) {
	st, err := e.openStore(e.prompter().Passphrase)
	if err != nil {
		return nil, err
	}
	if replace {
		return st, nil
	}
	switch _, err := st.BucketCredential(name); {
	case errors.Is(err, keystore.ErrNotFound):
		return st, nil
	case errors.Is(err, keystore.ErrDamaged):
		return nil, refusedErrf("%v: pass --replace to store the new one in its place (nothing was stored)", err)
	case err != nil:
		// the keystore could not be read (a wrong passphrase, no terminal
		// to ask it on): not a name in use
		return nil, fmt.Errorf("%w (nothing was stored)", err)
	}
	return nil, refusedErrf("a bucket credential named %s is stored already: pass --replace to replace it (nothing was stored)", name)
}

// putCred stores c in st: a credential the rules refuse is a usage error
// (exit 2) naming the field.
func (e *env) putCred(st *keystore.Store, c keystore.BucketCredential) error {
	if err := c.Validate(); err != nil {
		return usageErr(err)
	}
	if err := st.PutBucketCredential(c); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Stored %s credential %s in %s.\n", c.Kind(), c.CredentialName(), storeWhere(st.Backend()))
	return nil
}

// storeWhere is where a keystore backend keeps secrets, said in a
// sentence: "the" and its label, whose note in parentheses becomes a
// clause ("kernel keyring (kept until reboot)" is "the kernel keyring,
// kept until reboot"), so that it reads well inside parentheses too.
func storeWhere(b keystore.Backend) string { return whereLabel(b.Label()) }

// whereLabel is storeWhere of a backend's label.
func whereLabel(label string) string {
	place, note := splitLabel(label)
	if note == "" {
		return place
	}
	return place + ", " + note
}

// storePlace is storeWhere without the note ("the kernel keyring"), for
// a removal, which the note (how long it is kept) does not concern.
func storePlace(b keystore.Backend) string {
	place, _ := splitLabel(b.Label())
	return place
}

// storePlaces is storePlace of each backend a secret was removed from:
// "the Secret Service and the kernel keyring".
func storePlaces(bs []keystore.Backend) string {
	places := make([]string, len(bs))
	for i, b := range bs {
		places[i] = storePlace(b)
	}
	return strings.Join(places, " and ")
}

func splitLabel(label string) (place, note string) {
	place = label
	if i := strings.LastIndex(label, " ("); i > 0 && strings.HasSuffix(label, ")") {
		place, note = label[:i], label[i+2:len(label)-1]
	}
	return "the " + place, note
}

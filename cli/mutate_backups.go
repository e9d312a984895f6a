package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// backups create; restores create and delete.

var backupFlags = map[string]string{
	"backup_type": "--type", "schedule": "--schedule", "service_id": "--service",
	"external_storage.bucket.path": "--bucket", "external_storage.bucket.credentials": "--creds",
}

func newBackupsCreateCmd(e *env) *cobra.Command {
	var cf changeFlags
	var service, typ, schedule, bucket, creds string
	cmd := cf.verb(withWait, "create --service SERVICE --type TYPE [--schedule once|CRON] [--bucket URI --creds NAME]",
		"Take a backup now, or schedule one (cron, in UTC)",
		`Take a backup now (--schedule once, the default) or schedule one with a
5-field cron expression (schedules run in UTC). Types: full (what
incremental backups build on), incremental (needs a completed full
backup), logical (SQL statements, the portable choice), physical (data
files, for large databases), binarylog. The live service (a profile with
the backup prefix /skybackup/v1, such as skysql) takes full, incremental,
binarylog, dump (its logical backup) and snapshot instead.

To write it to your own bucket, give the bucket path and the name of
bucket credentials stored with `+"`skytui creds add`"+` (never the secret itself):

  skytui backups create --service orders-prod --type dump \
    --bucket gs://acme-exports/orders --creds nightly --wait

--wait (with --schedule once) follows the backup until it completed.`,
		cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
			if err := requireServiceFlag(cmd, service, ""); err != nil {
				return err
			}
			schedule = strings.TrimSpace(schedule)
			var rules api.ValidationErrors
			for _, err := range []error{api.ValidateBackupType(typ), api.ValidateSchedule(schedule)} {
				if fe, ok := err.(*api.FieldError); ok {
					rules = append(rules, fe)
				}
			}
			switch {
			case bucket != "" && creds == "":
				rules = append(rules, &api.FieldError{Field: "external_storage.bucket.credentials", Rule: "is required with --bucket: the name of stored bucket credentials (skytui creds list)"})
			case bucket == "" && creds != "":
				rules = append(rules, &api.FieldError{Field: "external_storage.bucket.path", Rule: "is required with --creds: s3://<bucket>/<path> or gs://<bucket>/<path>"})
			case bucket != "":
				if fe, ok := api.ValidateBackupBucketPath(bucket).(*api.FieldError); ok {
					rules = append(rules, fe)
				}
			}
			if len(rules) > 0 {
				return requestErr(rules, backupFlags)
			}
			if cf.wait && schedule != "once" {
				return usageErrf("--wait follows a backup taken now (--schedule once); a schedule has no end")
			}
			c, err := e.openChange(cmd, &cf, "backups create")
			if err != nil {
				return err
			}
			if err := api.CheckBackupType(c.client.LiveBackup(), typ); err != nil {
				return requestErr(err, backupFlags) // the profile's interface names its types otherwise
			}
			req := api.ScheduleRequest{BackupType: typ, Schedule: schedule}
			if bucket != "" {
				enc, err := encodeStored(c.store, creds, bucket, "external_storage.bucket.credentials")
				if err != nil {
					return err
				}
				req.ExternalStorage = &api.ExternalStorage{Bucket: api.ExternalBucket{Path: bucket, Credentials: enc}}
			}
			ctx := cmd.Context()
			s, _, err := c.serviceByArg(cmd, "--service", service)
			if err != nil {
				return err
			}
			req.ServiceID = s.ID
			// what was listed before, to tell the new backup when the
			// answer does not name it
			var before []api.Backup
			if cf.wait || typ == api.BackupIncremental {
				if before, err = c.client.ListBackups(ctx, s.ID); err != nil {
					return err
				}
			}
			if typ == api.BackupIncremental && !api.HasCompletedFull(before) {
				return usageErrf("--type (backup_type): incremental needs a completed full backup of %s; take one first with --type full", s.NameOrID())
			}
			name := c.arg(s)
			// a backup taken now shows in the backups; a recurring schedule
			// only in the schedules: what stderr and -o json name alike
			check := "skytui backups list --service " + name
			if schedule != "once" {
				check = "skytui schedules list --service " + name
			}
			submitted := time.Now()
			sc, err := c.client.CreateSchedule(ctx, req)
			if err != nil {
				// not known whether it was made: a one-time job is in the
				// schedules before its backup is in the backups
				return e.answered(sc, err, backupFlags, "skytui backups list --service "+name+"` and `skytui schedules list --service "+name)
			}
			if why := sc.AnswerUnreadable(); why != "" {
				e.noteUnreadable(why, check)
			}

			if !cf.wait {
				if sc.AnswerUnreadable() != "" && bucket != "" {
					sc.Target = bucket // the stand-in says where it was asked to go, not managed
				}
				return c.out.emitAnswer(e.stdout, sc, schedulesTable([]api.Schedule{*sc}), check,
					map[string]any{"service": s.NameOrID(), "service_id": s.ID, "type": typ, "schedule": schedule})
			}
			w := e.newWaiter(&cf, "backup of "+s.NameOrID(), "skytui backups list --service "+name)
			b, err := w.waitBackup(ctx, c.client, s.ID, newBackupFinder(sc.BackupID, typ, before, submitted))
			if err != nil {
				return err
			}
			return c.out.emit(e.stdout, b, backupsTable([]api.Backup{*b}, map[string]string{s.ID: s.Name}))
		})
	fl := cmd.Flags()
	fl.StringVar(&service, "service", "", "the service to back up, by name or ID (required)")
	fl.StringVar(&typ, "type", "", "full, incremental, logical, physical or binarylog; on the live service (backup prefix /skybackup/v1) full, incremental, binarylog, dump or snapshot (required)")
	fl.StringVar(&schedule, "schedule", "once", `"once" (now) or a 5-field cron expression in UTC, such as "0 3 * * *"`)
	fl.StringVar(&bucket, "bucket", "", "your own bucket: s3://BUCKET/PATH or gs://BUCKET/PATH (default: managed storage)")
	fl.StringVar(&creds, "creds", "", "with --bucket: the name of stored bucket credentials of the matching kind")
	return cmd
}

// newBackupFinder picks the new backup from a listing: by the key the
// answer named, else the newest backup of the type that was not listed
// before the submit.
func newBackupFinder(key, typ string, before []api.Backup, submitted time.Time) func([]api.Backup) *api.Backup {
	old := map[string]bool{}
	for _, b := range before {
		old[b.Key] = true
	}
	return func(list []api.Backup) *api.Backup {
		var found *api.Backup
		for i := range list {
			b := &list[i]
			switch {
			case key != "" && b.Key == key:
				return b
			case key != "" || old[b.Key] || !strings.EqualFold(b.Type, typ):
			case found == nil || b.StartTime.After(found.StartTime.Time):
				found = b
			}
		}
		return found
	}
}

// ---- restores ----

var restoreFlags = map[string]string{
	"service_id": "--service", "key": "--backup", "id": "--backup-id / --file",
	"external_source.bucket": "--bucket", "external_source.method": "--method",
	"external_source.credentials": "--creds", "point_in_time": "--at",
}

type restoreSource struct {
	backup, backupID                        string
	bucket, file, method, creds, encKeyName string
	from, at                                string // point in time (forms/restoreform/steps.go)
}

func newRestoresCreateCmd(e *env) *cobra.Command {
	var cf changeFlags
	var service string
	var src restoreSource
	cmd := cf.verb(withYes|withConfirm|withWait, "create --service TARGET (--backup KEY | --backup-id ID | --bucket URI --file F --method M --creds NAME | --from SOURCE --at TIME) --yes --confirm TARGET",
		"Restore a service from a backup: the target is stopped and all its data erased",
		`Restore a service from a backup. The target is stopped, all its data is
erased, and its default username and password become the source
service's. So it needs --yes and --confirm with the target's exact name.

The backup comes from one of:
  --backup KEY            managed storage: a key from `+"`skytui backups list`"+` (full, or its
                          12-character short form); only within the same cloud provider
  --backup-id ID          a backup identifier
  --bucket gs://NAME/ --file PATH.gz --method mariabackup|mysqldump --creds NAME
                          your own bucket, named alone (a folder in it goes in --file:
                          --file dumps/full.sql.gz), with stored bucket credentials and, for
                          an encrypted backup, --encryption-key NAME (a key stored by the TUI)
  --from SOURCE --at TIME point in time: SOURCE's backups and binary logs replayed to TIME,
                          "2026-11-23 10:15[:SS]" (UTC) or RFC 3339; a moment outside
                          SOURCE's window is refused, naming it, before anything is sent

  skytui restores create --service staging-eu --backup 3f9c2a1b7d4e \
    --yes --confirm staging-eu --wait

--wait follows the restore until it succeeded (exit 0) or failed (exit 1).`,
		cobra.NoArgs, func(cmd *cobra.Command, _ []string) error {
			return e.createRestore(cmd, &cf, service, src)
		})
	fl := cmd.Flags()
	fl.StringVar(&service, "service", "", "the service to restore into (the target), by name or ID (required)")
	fl.StringVar(&src.backup, "backup", "", "managed storage: the backup's key, or its 12-character short key")
	fl.StringVar(&src.backupID, "backup-id", "", "a backup identifier")
	fl.StringVar(&src.bucket, "bucket", "", "your own bucket alone: gs://NAME/ or s3://NAME/ (trailing slash; a folder goes in --file)")
	fl.StringVar(&src.file, "file", "", "with --bucket: the gzip backup file inside the bucket")
	fl.StringVar(&src.method, "method", "", "with --bucket: the tool that made the backup: mariabackup or mysqldump")
	fl.StringVar(&src.creds, "creds", "", "with --bucket: the name of stored bucket credentials of the matching kind")
	fl.StringVar(&src.encKeyName, "encryption-key", "", "with --bucket: the name of a stored encryption key, for an encrypted backup")
	fl.StringVar(&src.from, "from", "", "point in time: the service whose backups and binary logs to use, by name or ID (with --at)")
	fl.StringVar(&src.at, "at", "", "point in time: the moment, "+api.MomentForms+" (with --from)")
	return cmd
}

// checkSource checks the source flags before anything is read or sent.
func (src *restoreSource) check() error {
	if err := src.checkPITR(); err != nil {
		return err
	}
	n := 0
	for _, v := range []string{src.backup, src.backupID, src.bucket, src.at} {
		if strings.TrimSpace(v) != "" {
			n++
		}
	}
	if n != 1 {
		return usageErrf("give exactly one source: --backup KEY, --backup-id ID, --bucket URI with --file, --method and --creds, or --from SOURCE --at TIME")
	}
	if src.bucket == "" {
		for flag, v := range map[string]string{"--file": src.file, "--method": src.method, "--creds": src.creds, "--encryption-key": src.encKeyName} {
			if v != "" {
				return usageErrf("%s goes with --bucket", flag)
			}
		}
		return nil
	}
	var rules api.ValidationErrors
	for _, err := range []error{api.ValidateRestoreBucket(src.bucket), api.ValidateMethod(src.method)} {
		if fe, ok := err.(*api.FieldError); ok {
			rules = append(rules, fe)
		}
	}
	// a path after the bucket name belongs to --file: the rule names the
	// two flags to pass (the wizard's tab splits them alike)
	split := false
	if bucket, file, ok := api.SplitRestoreBucket(src.bucket, src.file); ok && len(rules) > 0 && rules[0].Field == "external_source.bucket" {
		fix := "pass --bucket " + bucket + " and the file's whole path in --file"
		if file != "" {
			fix = "pass --bucket " + bucket + " --file " + kit.ShellQuote(file)
		}
		rules[0] = &api.FieldError{Field: rules[0].Field, Rule: rules[0].Rule + "; " + fix}
		split = true
	}
	if strings.TrimSpace(src.file) == "" && !split {
		rules = append(rules, &api.FieldError{Field: "id", Rule: "is required with --bucket: the backup file in the bucket (--file)"})
	}
	if src.creds == "" {
		rules = append(rules, &api.FieldError{Field: "external_source.credentials", Rule: "is required with --bucket: the name of stored bucket credentials (skytui creds list)"})
	}
	if len(rules) > 0 {
		return requestErr(rules, restoreFlags)
	}
	return nil
}

// storedEncryptionKey reads the restore encryption key --encryption-key
// names. One not stored is not found (exit 4, as an unknown --creds),
// said in words: where keys are kept and how one is stored.
func storedEncryptionKey(st *keystore.Store, name string) (string, error) {
	key, err := st.EncryptionKey(name)
	switch {
	case err == nil:
		return key, nil
	case errors.Is(err, keystore.ErrNotFound):
		return "", notFoundErrf("--encryption-key %s: no restore encryption key of that name is stored in %s%s; "+
			"the terminal UI lists the stored ones in Settings (5), and its restore wizard stores one when \"keep the key in the keystore\" is ticked (nothing was sent)",
			name, storeWhere(st.Backend()), st.Unread())
	case errors.Is(err, keystore.ErrInvalid):
		return "", usageErrf("--encryption-key: %v (nothing was sent)", err)
	}
	return "", fmt.Errorf("--encryption-key %s: %w (nothing was sent)", name, err)
}

func (e *env) createRestore(cmd *cobra.Command, cf *changeFlags, service string, src restoreSource) error {
	const what = "restores create"
	if err := requireServiceFlag(cmd, service, ": the service to restore into"); err != nil {
		return err
	}
	if err := src.check(); err != nil {
		return err
	}
	c, err := e.openChange(cmd, cf, what)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	target, svcs, err := c.serviceByArg(cmd, "--service", service)
	if err != nil {
		return err
	}
	if err := needYesConfirm(cf, "a restore (it stops the target and erases all its data)", "a restore", target); err != nil {
		return err
	}
	// the secrets are read before anything is sent
	var es *api.ExternalSource
	if src.bucket != "" {
		if !strings.HasSuffix(strings.ToLower(src.file), ".gz") {
			fmt.Fprintf(e.stderr, "skytui: warning: --file %s does not end in .gz: the backup file must be gzip-compressed\n", src.file)
		}
		enc, err := encodeStored(c.store, src.creds, src.bucket, "external_source.credentials")
		if err != nil {
			return err
		}
		es = &api.ExternalSource{Bucket: src.bucket, Method: src.method, Credentials: enc}
		if src.encKeyName != "" {
			if es.EncryptionKey, err = storedEncryptionKey(c.store, src.encKeyName); err != nil {
				return err
			}
		}
	}
	var req api.RestoreRequest
	switch {
	case es != nil:
		req = api.BucketRestore(target.ID, strings.TrimSpace(src.file), *es)
	case src.backupID != "":
		req = api.BackupIDRestore(target.ID, strings.TrimSpace(src.backupID))
	case src.at != "":
		if req, err = c.pitrRequest(ctx, src, svcs, target); err != nil {
			return err
		}
	default:
		key, listed, err := c.backupKey(ctx, strings.TrimSpace(src.backup), svcs)
		if err != nil {
			return err
		}
		if err := managedRestorable(listed); err != nil {
			return err
		}
		if err := sameProvider(key, svcs, target, c.client.LogicalBackupType()); err != nil {
			return err
		}
		req = api.ManagedRestore(target.ID, key)
	}
	if err := req.Validate(); err != nil {
		return requestErr(err, restoreFlags)
	}
	name := c.arg(target)
	check := "skytui restores list --service " + name
	r, err := c.client.CreateRestore(ctx, req)
	if err := e.answered(r, err, restoreFlags, check); err != nil {
		return err
	}
	if !cf.wait {
		if v, ok := c.out.unreadJSON(r, check, restoreNamed(req, target)); ok {
			return c.out.emit(e.stdout, v, nil)
		}
		if r.ID == 0 {
			// no record was read: the client's stand-in has a guessed
			// status; the output shows what the request named
			if c.out.output == outJSON {
				return c.out.emit(e.stdout, acceptedJSON(c.out.suggest(check), restoreNamed(req, target), "no record", "the answer named no restore"), nil)
			}
			fmt.Fprintf(e.stderr, "skytui: the restore's ID and status are unknown: check with `%s`\n", check)
			r = requested(req, target)
		}
		return c.emitRestore(ctx, e, r)
	}
	id := int64(r.ID)
	if id == 0 {
		if id, err = newestRunningRestore(ctx, c.client, target.ID, req.Key, check); err != nil {
			return err
		}
	}
	final, err := e.followRestore(ctx, c.client, cf, id, target.NameOrID())
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "skytui: restore %d into %s succeeded: its default username and password are now the source service's (`skytui services credentials %s`)\n", id, target.NameOrID(), name)
	return c.emitRestore(ctx, e, final)
}

// requested is the row of a restore whose answer named no record: what
// the request named (the target, by its name too, and the source), its ID
// and status unknown.
func requested(req api.RestoreRequest, target *api.Service) *api.Restore {
	r := &api.Restore{ServiceID: req.ServiceID, ServiceName: target.Name, Status: "unknown"}
	switch {
	case req.ExternalSource != nil:
		r.Bucket, r.Key = req.ExternalSource.Bucket, req.ID
	case req.PointInTime == "" && req.Key != "":
		r.Key = req.Key
	case req.PointInTime == "":
		r.Key = req.ID // a backup identifier
	}
	return r
}

// restoreNamed is what a restore request named, for unreadJSON: the
// target and the source.
func restoreNamed(req api.RestoreRequest, target *api.Service) map[string]any {
	v := map[string]any{"service": target.NameOrID(), "service_id": req.ServiceID}
	switch {
	case req.PointInTime != "":
		v["from"], v["at"] = req.ID, req.PointInTime
	case req.ExternalSource != nil:
		v["bucket"], v["file"], v["method"] = req.ExternalSource.Bucket, req.ID, req.ExternalSource.Method
	case req.Key != "":
		v["backup"] = req.Key
	case req.ID != "":
		v["backup_id"] = req.ID
	}
	return v
}

// backupKey finds a managed backup's full key and, where the listing
// shows it, its record. A short key is looked up in the backups of every
// service. A full key (<hash>:<service>:<pod>) is taken as given; its
// record is looked up in the backups of the service it names, when that
// service is listed and its backups can be read (else nil: the API
// judges it).
func (c *changeSession) backupKey(ctx context.Context, ref string, svcs []api.Service) (string, *api.Backup, error) {
	if parts := strings.Split(ref, ":"); len(parts) > 1 {
		if !slices.ContainsFunc(svcs, func(s api.Service) bool { return s.ID == parts[1] }) {
			return ref, nil, nil
		}
		bs, err := c.client.ListBackups(ctx, parts[1])
		if err != nil {
			return ref, nil, nil
		}
		if i := slices.IndexFunc(bs, func(b api.Backup) bool { return b.Key == ref }); i >= 0 {
			return ref, &bs[i], nil
		}
		return ref, nil, nil
	}
	all, err := c.client.ListAllBackups(ctx, serviceIDs(svcs))
	if err != nil {
		return "", nil, err
	}
	var found []api.Backup
	for _, b := range all {
		if (b.Key == ref || api.ShortKey(b.Key) == ref) && !slices.ContainsFunc(found, func(f api.Backup) bool { return f.Key == b.Key }) {
			found = append(found, b)
		}
	}
	switch len(found) {
	case 0:
		return "", nil, notFoundErrf("no backup with the key %q (see `skytui backups list`)", ref)
	case 1:
		return found[0].Key, &found[0], nil
	}
	return "", nil, usageErrf("--backup %q matches %d backups: give the full key", ref, len(found))
}

// managedRestorable refuses, before anything is sent, a backup the listing
// says cannot be restored from managed storage (api.ManagedRestoreRefusal,
// as the TUI's wizard): one still running, failed, or in the user's own
// bucket. A backup not read (nil) is the API's to judge.
func managedRestorable(b *api.Backup) error {
	if b == nil {
		return nil
	}
	why := api.ManagedRestoreRefusal(*b)
	switch {
	case why == "":
		return nil
	case b.IsExternalStorage && api.BackupState(b.Status) == api.BackupCompleted:
		why += " (--bucket URI --file F --method M --creds NAME)"
	}
	return usageErrf("--backup: %s (nothing was sent)", why)
}

// sameProvider refuses, before anything is sent, a managed restore across
// cloud providers (api.CheckSameProvider, as the TUI's wizard; the key
// names the source service: <hash>:<service>:<pod>).
func sameProvider(key string, svcs []api.Service, target *api.Service, logical string) error {
	parts := strings.Split(key, ":")
	if len(parts) < 2 {
		return nil
	}
	for _, s := range svcs {
		if s.ID != parts[1] {
			continue
		}
		ref := api.CheckSameProvider(api.Backup{Key: key}, s, *target)
		if ref == nil {
			return nil
		}
		return usageErrf("--backup: %s. Across providers: back %s up to your own bucket (`skytui backups create --service %s --type %s --bucket BUCKET --creds NAME`), copy the folder to %s, then restore from it with --bucket, --file, --method mysqldump and --creds (nothing was sent)",
			ref.Error(), s.NameOrID(), argOf(&s, svcs), logical, bucketFor(ref.TargetProvider))
	}
	return nil
}

// bucketFor is the kind of bucket to copy a backup to for a restore on
// provider, in words: its own storage on GCP (gs://) and AWS (s3://); on
// any other provider one of the two, as --bucket takes no other kind.
func bucketFor(provider string) string {
	switch strings.ToLower(provider) {
	case "gcp":
		return "a gs:// bucket"
	case "aws":
		return "an s3:// bucket"
	}
	return "a gs:// or s3:// bucket (--bucket takes no other kind)"
}

// newestRunningRestore finds the restore an accepted but unread answer
// started: the newest running restore of the target (of backup key, when
// key is given and the listing names one). When there is none
// to follow, the error names check, the command that shows the restores.
func newestRunningRestore(ctx context.Context, c *api.Client, targetID, key, check string) (int64, error) {
	list, err := c.ListRestores(ctx, targetID)
	var id int64
	if r := api.NewestRunningRestore(list, targetID, key); r != nil {
		id = int64(r.ID)
	}
	if err == nil && id == 0 {
		err = errors.New("no running restore of the target is listed")
	}
	if err != nil {
		return 0, fmt.Errorf("the restore was accepted, but it cannot be followed: %v; check with `%s`", err, check)
	}
	return id, nil
}

func newRestoresDeleteCmd(e *env) *cobra.Command {
	var cf changeFlags
	return cf.verb(withYes|withConfirm, "delete ID --yes --confirm TARGET",
		"Delete (cancel) a restore that has not finished",
		`Delete (cancel) a restore that has not finished. It may leave the target
partly restored: check its data or restore it again. The API refuses once
the restore can no longer be stopped. It needs --yes and --confirm with the
target service's exact name.`,
		cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
			const what = "restores delete"
			id, err := parseRestoreID(args[0])
			if err != nil {
				return err
			}
			// --yes and --confirm are asked once the target is read, in
			// one refusal that names them both
			c, err := e.openChange(cmd, &cf, what)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			r, err := c.client.GetRestore(ctx, id)
			if err != nil {
				return readErr(err)
			}
			if why := r.DeleteRefusal(); why != "" {
				return usageErrf("%s (nothing was sent)", why) // as the TUI's d
			}
			svcs, err := c.client.ListServices(ctx)
			if err != nil {
				return err
			}
			target := &api.Service{ID: r.ServiceID, Name: r.ServiceName}
			for i := range svcs {
				if svcs[i].ID == r.ServiceID {
					target = &svcs[i]
				}
			}
			if err := needYesConfirm(&cf, what, what, target); err != nil {
				return err
			}
			if err := c.client.DeleteRestore(ctx, id); err != nil {
				return sentErr(err, "skytui restores get "+args[0])
			}
			t := &table{head: []string{"ID", "TARGET", "RESULT"}}
			t.add(args[0], target.NameOrID(), "deleted")
			return c.out.emit(e.stdout, map[string]any{"id": id, "service_id": r.ServiceID, "deleted": true}, t)
		})
}

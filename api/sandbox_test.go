package api_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
)

const sbKey = "test-key"

func sandboxClient(t *testing.T, backupPrefix string) (*api.Client, *sandbox.Server, *sandbox.ManualClock) {
	t.Helper()
	c, sb, clock, _ := sandboxAt(t, backupPrefix)
	return c, sb, clock
}

// sandboxAt is sandboxClient with the sandbox's URL, for requests the
// client would not send.
func sandboxAt(t *testing.T, backupPrefix string) (*api.Client, *sandbox.Server, *sandbox.ManualClock, string) {
	t.Helper()
	clock := sandbox.NewManualClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	sb := sandbox.New(sandbox.Options{APIKey: sbKey, Clock: clock})
	url, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	c, err := api.New(api.Config{BaseURL: url, APIKey: sbKey, BackupPrefix: backupPrefix,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	if err != nil {
		t.Fatal(err)
	}
	return c, sb, clock, url
}

// launch creates a service from the option listings and waits (on the
// manual clock) until it is ready.
func launch(t *testing.T, c *api.Client, clock *sandbox.ManualClock, name, provider string) *api.Service {
	t.Helper()
	ctx := context.Background()
	regions, err := c.ListRegions(ctx, provider)
	if err != nil || len(regions) == 0 {
		t.Fatalf("regions of %s: %v %v", provider, regions, err)
	}
	types, err := c.ListServiceTypes(ctx)
	if err != nil || len(types) == 0 {
		t.Fatalf("service types: %v", err)
	}
	topos, err := c.ListTopologies(ctx, types[0].Name)
	if err != nil || len(topos) == 0 {
		t.Fatalf("topologies: %v", err)
	}
	topo := topos[0].Name
	sizes, err := c.ListSizes(ctx, provider, topo, "amd64")
	if err != nil || len(sizes) == 0 {
		t.Fatalf("sizes: %v", err)
	}
	versions, err := c.ListVersions(ctx, topo)
	if err != nil || len(versions) == 0 {
		t.Fatalf("versions: %v", err)
	}
	storage, err := c.ListStorageSizes(ctx, topo)
	if err != nil || len(storage) == 0 || len(storage[0].StorageSizes) == 0 {
		t.Fatalf("storage sizes: %v %v", storage, err)
	}
	svc, err := c.CreateService(ctx, api.CreateServiceRequest{
		ServiceType: types[0].Name, Topology: topo, Provider: provider, Region: regions[0].Name,
		Architecture: "amd64", Size: sizes[0].Name, Storage: storage[0].StorageSizes[0], Nodes: 1,
		Name: name, Version: versions[0].Name, SSLEnabled: true,
		AllowList: []api.AllowListEntry{{IP: "203.0.113.7/32", Comment: "jump host"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !svc.Pending() || api.ValidateServiceID(svc.ID) != nil {
		t.Fatalf("new service %+v", svc)
	}
	_, err = c.GetCredentials(ctx, svc.ID)
	if !api.IsConflict(err) && api.StatusOf(err) != http.StatusBadRequest {
		t.Fatalf("credentials before ready: %v", err)
	}
	clock.Advance(6 * time.Minute)
	got, err := c.GetService(ctx, svc.ID)
	if err != nil || !got.Ready() || got.FQDN == "" || got.ReadWritePort() == 0 {
		t.Fatalf("after launch: %+v %v", got, err)
	}
	return got
}

func waitBackup(t *testing.T, c *api.Client, clock *sandbox.ManualClock, serviceID, typ string) api.Backup {
	t.Helper()
	for range 200 {
		bs, err := c.ListBackups(context.Background(), serviceID)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			if api.StatusIs(b.Type, typ) && api.BackupState(b.Status) == api.BackupCompleted {
				return b
			}
		}
		clock.Advance(time.Minute)
	}
	t.Fatalf("no completed %s backup of %s", typ, serviceID)
	return api.Backup{}
}

func TestEveryCallAgainstTheSandbox(t *testing.T) {
	for _, prefix := range []string{api.DefaultBackupPrefix, api.LiveBackupPrefix} {
		t.Run(strings.Trim(prefix, "/"), func(t *testing.T) {
			c, sb, clock := sandboxClient(t, prefix)
			ctx := context.Background()
			if err := c.Check(ctx); err != nil {
				t.Fatal(err)
			}
			provs, err := c.ListProviders(ctx)
			if err != nil || len(provs) != 3 {
				t.Fatalf("providers %v %v", provs, err)
			}

			src := launch(t, c, clock, "orders-src", "gcp")
			dst := launch(t, c, clock, "orders-dst", "gcp")
			other := launch(t, c, clock, "orders-aws", "aws")

			all, err := c.ListServices(ctx)
			if err != nil || len(all) != 3 {
				t.Fatalf("services %d %v", len(all), err)
			}
			creds, err := c.GetCredentials(ctx, src.ID)
			if err != nil || creds.Username == "" || creds.Password == "" {
				t.Fatalf("credentials %+v %v", creds, err)
			}

			// allow list
			al, err := c.GetAllowList(ctx, src.ID)
			if err != nil || len(al) == 0 || len(al[0].AllowList) != 1 {
				t.Fatalf("allow list %+v %v", al, err)
			}
			if al, err = c.AddAllowListEntry(ctx, src.ID, "198.51.100.9"); err != nil || len(al[0].AllowList) != 2 {
				t.Fatalf("add %+v %v", al, err)
			}
			if al, err = c.RemoveAllowListEntry(ctx, src.ID, "198.51.100.9/32"); err != nil || len(al[0].AllowList) != 1 {
				t.Fatalf("remove %+v %v", al, err)
			}
			// a comment: a new entry with one, then a new comment on it;
			// the entries already there keep theirs
			if _, err = c.SetAllowListComment(ctx, src.ID, "198.51.100.10", "office VPN"); err != nil {
				t.Fatal(err)
			}
			if _, err = c.SetAllowListComment(ctx, src.ID, "198.51.100.10/32", "office VPN (Berlin)"); err != nil {
				t.Fatal(err)
			}
			al, err = c.GetAllowList(ctx, src.ID)
			if err != nil || len(al[0].AllowList) != 2 || al[0].AllowList[0].Comment != "jump host" ||
				al[0].AllowList[1].IP != "198.51.100.10/32" || al[0].AllowList[1].Comment != "office VPN (Berlin)" {
				t.Fatalf("after the comments: %+v %v", al, err)
			}
			if al, err = c.RemoveAllowListEntry(ctx, src.ID, "198.51.100.10/32"); err != nil || len(al[0].AllowList) != 1 {
				t.Fatalf("remove %+v %v", al, err)
			}

			// backups: incremental refused before a full one exists
			_, err = c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: "incremental", Schedule: "once", ServiceID: src.ID})
			if api.StatusOf(err) != http.StatusBadRequest || !strings.Contains(err.Error(), "full") {
				t.Fatalf("incremental before full: %v", err)
			}
			job, err := c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: src.ID})
			if err != nil || job.ID == 0 {
				t.Fatalf("once: %+v %v", job, err)
			}
			if _, err := c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: "full", Schedule: "0 2 * * *", ServiceID: src.ID}); err != nil {
				t.Fatal(err)
			}
			scheds, err := c.ListSchedules(ctx, src.ID)
			if err != nil || len(scheds) < 2 {
				t.Fatalf("schedules %+v %v", scheds, err)
			}
			st, err := c.BackupStatus(ctx, src.ID)
			if err != nil && !errors.Is(err, api.ErrStatusUnsupported) {
				t.Fatal(err)
			}
			if err == nil && (len(st) == 0 || api.BackupState(st[0].Status) != api.BackupInProgress) {
				t.Fatalf("status right after once: %+v", st)
			}
			full := waitBackup(t, c, clock, src.ID, "full")
			if full.BinlogGTIDPosition == "" || !strings.Contains(full.Key, src.ID) {
				t.Fatalf("backup %+v", full)
			}
			if _, err := c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: "incremental", Schedule: "once", ServiceID: src.ID}); err != nil {
				t.Fatalf("incremental after full: %v", err)
			}

			// restores: managed key, cross-provider refusal, backup id, own bucket, delete
			r, err := c.CreateRestore(ctx, api.ManagedRestore(dst.ID, full.Key))
			if err != nil || r.ID == 0 {
				t.Fatalf("restore %+v %v", r, err)
			}
			_, err = c.CreateRestore(ctx, api.ManagedRestore(other.ID, full.Key))
			if api.StatusOf(err) != http.StatusBadRequest || !strings.Contains(strings.ToLower(err.Error()), "provider") {
				t.Fatalf("cross-provider: %v", err)
			}
			list, err := c.ListRestores(ctx, dst.ID)
			if err != nil || len(list) != 1 || !list[0].Running() {
				t.Fatalf("restores %+v %v", list, err)
			}
			for range 200 {
				one, err := c.GetRestore(ctx, int64(r.ID))
				if err != nil {
					t.Fatal(err)
				}
				if one.Finished() {
					if !one.Succeeded() {
						t.Fatalf("restore ended %+v", one)
					}
					break
				}
				clock.Advance(time.Minute)
			}
			after, err := c.GetCredentials(ctx, dst.ID)
			if err != nil || after.Username != creds.Username || after.Password != creds.Password {
				t.Fatalf("target credentials should now be the source's: %+v %v", after, err)
			}

			byID, err := c.CreateRestore(ctx, api.BackupIDRestore(dst.ID, full.Key))
			if err != nil {
				t.Fatal(err)
			}
			if err := c.DeleteRestore(ctx, int64(byID.ID)); err != nil {
				t.Fatalf("delete running restore: %v", err)
			}
			if _, err := c.GetRestore(ctx, int64(byID.ID)); !api.IsNotFound(err) {
				t.Fatalf("deleted restore still there: %v", err)
			}
			if err := c.DeleteRestore(ctx, int64(r.ID)); !api.IsConflict(err) {
				t.Fatalf("deleting a finished restore: %v", err)
			}

			s3, _ := api.EncodeS3Credentials(api.S3Credentials{AccessKeyID: "AKIA", SecretAccessKey: "s", Region: "us-east-1"})
			_, err = c.CreateRestore(ctx, api.BucketRestore(dst.ID, "dump.sql", api.ExternalSource{Bucket: "s3://bkt/", Method: "mysqldump", Credentials: s3}))
			if api.StatusOf(err) != http.StatusBadRequest || !strings.Contains(err.Error(), ".gz") {
				t.Fatalf("non-gzip file: %v", err)
			}
			if _, err := c.CreateRestore(ctx, api.BucketRestore(dst.ID, "dump.sql.gz", api.ExternalSource{Bucket: "s3://bkt/", Method: "mysqldump", Credentials: s3})); err != nil {
				t.Fatalf("own-bucket restore: %v", err)
			}
			if n := sb.Stats().Count("POST", prefix+"/restores"); n != 5 {
				t.Errorf("POST /restores reached the sandbox %d times, want exactly one per restore asked (5)", n)
			}
		})
	}
}

func TestUnauthorizedAgainstTheSandbox(t *testing.T) {
	_, sb, _ := sandboxClient(t, "")
	url, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, _ := api.New(api.Config{BaseURL: url, APIKey: "wrong"})
	err = c.Check(context.Background())
	var e *api.Error
	if !api.IsUnauthorized(err) || !errors.As(err, &e) || e.TraceID == "" || e.Message == "" {
		t.Fatalf("want 401 with message and trace id, got %v", err)
	}
}

func TestRetriesThroughSandboxFaults(t *testing.T) {
	c, sb, _ := sandboxClient(t, "")
	sb.SetFaults(sandbox.Faults{ErrorRate: 0.5, Seed: 7})
	ok := 0
	for range 20 {
		if _, err := c.ListServices(context.Background()); err == nil {
			ok++
		}
	}
	if ok < 15 {
		t.Errorf("with 50%% server errors and retries, only %d of 20 listings succeeded", ok)
	}
	sb.SetFaults(sandbox.Faults{})
	before := sb.Stats().Count("POST", "/provisioning/v1/services")
	sb.SetFaults(sandbox.Faults{ErrorRate: 1, Seed: 1})
	_, err := c.CreateService(context.Background(), api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single", Provider: "aws",
		Region: "us-east-1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: "never-twice"})
	if err == nil {
		t.Fatal("want the injected error")
	}
	if got := sb.Stats().Count("POST", "/provisioning/v1/services") - before; got != 1 {
		t.Errorf("a failed POST was sent %d times", got)
	}
}

// A DELETE whose answer is lost is not sent again blindly: the client
// reads again what it removes, and a removal the sandbox carried out is
// done, never the failure a second DELETE would meet (400 "has no managed
// replication", 404, 409).
func TestLostDeleteAnswersReadAgainBeforeARetry(t *testing.T) {
	c, sb, clock := sandboxClient(t, "")
	ctx := context.Background()
	pri := launch(t, c, clock, "orders-main", "aws")
	rep := launch(t, c, clock, "orders-copy", "aws")
	if _, err := c.StartManagedReplication(ctx, rep.ID, pri.ID, api.ReplicationUni); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddAllowListEntry(ctx, pri.ID, "198.51.100.9"); err != nil {
		t.Fatal(err)
	}
	sc, err := c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: "full", Schedule: "0 2 * * *", ServiceID: pri.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: pri.ID}); err != nil {
		t.Fatal(err)
	}
	full := waitBackup(t, c, clock, pri.ID, "full")

	P, B := api.DefaultProvisioningPrefix, api.DefaultBackupPrefix
	for _, tc := range []struct {
		name, route string
		del         func() error
		gone        func() bool
	}{
		{"managed replication", P + "/services/{id}/replication",
			func() error { return c.EndManagedReplication(ctx, rep.ID) },
			func() bool { s, err := c.GetService(ctx, rep.ID); return err == nil && s.PrimaryHost == "" }},
		{"allow-list entry", P + "/services/{id}/security/allowlist",
			func() error {
				al, err := c.RemoveAllowListEntry(ctx, pri.ID, "198.51.100.9/32")
				if err == nil && (len(al) == 0 || len(al[0].AllowList) != 1) {
					return fmt.Errorf("the allow list after the removal: %+v", al)
				}
				return err
			},
			func() bool { al, err := c.GetAllowList(ctx, pri.ID); return err == nil && len(al[0].AllowList) == 1 }},
		{"schedule", B + "/backups/schedules/{id}",
			func() error { return c.DeleteSchedule(ctx, int64(sc.ID)) },
			func() bool { _, err := c.GetSchedule(ctx, int64(sc.ID)); return api.IsNotFound(err) }},
		{"restore", B + "/restores/{id}",
			func() error {
				r, err := c.CreateRestore(ctx, api.ManagedRestore(rep.ID, full.Key))
				if err != nil {
					return err
				}
				return c.DeleteRestore(ctx, int64(r.ID))
			},
			func() bool { l, err := c.ListRestores(ctx, rep.ID); return err == nil && len(l) == 0 }},
		{"service", P + "/services/{id}",
			func() error { return c.DeleteService(ctx, rep.ID) },
			func() bool {
				s, err := c.GetService(ctx, rep.ID)
				return api.IsNotFound(err) || err == nil && s.Pending()
			}},
	} {
		if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: "DELETE", Path: tc.route}); err != nil {
			t.Fatal(err)
		}
		before := sb.Stats().Count("DELETE", tc.route)
		if err := tc.del(); err != nil {
			t.Errorf("%s: carried out, its answer lost: %v, want done", tc.name, err)
		}
		if n := sb.Stats().Count("DELETE", tc.route) - before; n != 1 {
			t.Errorf("%s: DELETE sent %d times, want once", tc.name, n)
		}
		if !tc.gone() {
			t.Errorf("%s: not removed", tc.name)
		}
	}
}

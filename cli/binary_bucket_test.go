package cli

// Restores from your own bucket as the built binary against `skytui
// sandbox`, with bucket credentials stored by `skytui creds add`.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// useKeyring stores the commands' bucket credentials in the kernel
// keyring; the test is skipped where there is none (it fails in CI).
func (h *binSandbox) useKeyring() {
	h.t.Helper()
	h.env = append(h.env, "SKYTUI_SECRETS_BACKEND=keyctl")
	if _, err := os.Stat("/proc/keys"); err != nil {
		if os.Getenv("CI") == "true" {
			h.t.Fatalf("no kernel keyring for the bucket credentials: %v", err)
		}
		h.t.Skipf("no kernel keyring: %v", err)
	}
}

// TestBinaryRestoreFromOwnBucket: a restore from a file in your own
// bucket (the README's command) is shown in the tables with the bucket
// and the file whole, never cut; a managed backup keeps its short key.
// A missing --confirm says what to pass.
func TestBinaryRestoreFromOwnBucket(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "3000")
	h.useKeyring()
	privateKey := "-----BEGIN PRIVATE KEY-----\nMIIEbin" + h.key[len(h.key)-24:] + "\n-----END PRIVATE KEY-----\n"
	h.secret(privateKey[len("-----BEGIN PRIVATE KEY-----\n") : len(privateKey)-len("\n-----END PRIVATE KEY-----\n")])
	keyFile := filepath.Join(h.dir, "sa.json")
	sa := `{"type":"service_account","project_id":"acme-demo","client_email":"backup@acme-demo.iam.gserviceaccount.com","private_key":` +
		strings.ReplaceAll(`"`+privateKey+`"`, "\n", `\n`) + `}`
	if err := os.WriteFile(keyFile, []byte(sa), 0o600); err != nil {
		t.Fatal(err)
	}
	name := "bin-gcs-" + h.key[len(h.key)-8:]
	if so, _ := h.run(0, "creds", "add", "gcs", name, "--key-file", keyFile); !strings.Contains(so, "Stored gcs credential "+name) {
		t.Fatalf("creds add gcs: %s", so)
	}
	t.Cleanup(func() { h.exec("", 0, "creds", "remove", name) })

	create := []string{"restores", "create", "--service", sandbox.DemoStaging, "--bucket", "gs://acme-exports/", "--file", "orders/dump.sql.gz",
		"--method", "mysqldump", "--creds", name, "--yes"}
	h.refused("a restore needs --confirm with the target service's exact name: pass --confirm staging-eu (nothing was sent)", create...)
	so, _ := h.run(0, append(create, "--confirm", sandbox.DemoStaging)...)
	const whole = "gs://acme-exports/orders/dump.sql.gz"
	row := tableRows(so)
	if len(row) != 2 || len(row[1]) != 5 || row[1][1] != sandbox.DemoStaging || row[1][4] != whole {
		t.Fatalf("restores create: the source is not %s whole:\n%s", whole, so)
	}
	id := row[1][0]
	r := jsonOf[map[string]any](t, first(h.run(0, "restores", "get", id, "-o", "json")))
	if r["bucket"] != "gs://acme-exports/" || r["key"] != "orders/dump.sql.gz" {
		t.Fatalf("restores get %s -o json: %v", id, r)
	}
	for _, args := range [][]string{
		{"restores", "list", "--service", sandbox.DemoStaging},
		{"restores", "list", "--service", sandbox.DemoStaging, "-o", "wide"},
		{"restores", "get", id},
		{"restores", "get", id, "-o", "wide"},
	} {
		so, _ := h.run(0, args...)
		if r := tableRow(so, id); len(r) < 5 || r[4] != whole {
			t.Errorf("skytui %s: SOURCE is not %s:\n%s", strings.Join(args, " "), whole, so)
		}
	}
	// the demo's managed restore into staging-eu: its backup's short key
	managed := 0
	list := first(h.run(0, "restores", "list", "--service", sandbox.DemoStaging))
	for _, r := range jsonOf[[]map[string]any](t, first(h.run(0, "restores", "list", "--service", sandbox.DemoStaging, "-o", "json"))) {
		if key, _ := r["key"].(string); strings.Count(key, ":") == 2 {
			managed++
			if row := tableRow(list, fmt.Sprint(r["id"])); len(row) < 5 || row[4] != key[:12] {
				t.Errorf("a managed restore's SOURCE: %v, want %s", row, key[:12])
			}
		}
	}
	if managed == 0 {
		t.Errorf("no managed restore into staging-eu is listed:\n%s", list)
	}
}

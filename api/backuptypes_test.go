package api_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
)

// TestBackupTypesPerInterface: each backup interface takes its own types.
// The live service's description allows full, incremental, binarylog, dump
// and snapshot; the interface document's full, incremental, logical,
// physical and binarylog. A type the profile's interface does not take is
// refused before anything is sent, naming the type to use; the sandbox
// refuses it too, under each prefix.
func TestBackupTypesPerInterface(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		prefix        string
		ok            []string
		refused       map[string]string // type → the advice in the rule
		logicalByName string
	}{
		{api.LiveBackupPrefix, []string{"full", "dump", "snapshot", "binarylog"},
			map[string]string{"logical": "its logical (SQL) backup is dump", "physical": "its physical (mariabackup) backup is full"}, "dump"},
		{"/backup/v1", []string{"full", "logical", "physical", "binarylog"},
			map[string]string{"dump": "dump is the live service's name for logical", "snapshot": "snapshot is the live service's only"}, "logical"},
	} {
		t.Run(tc.prefix, func(t *testing.T) {
			c, sb, clock, url := sandboxAt(t, tc.prefix)
			svc := launch(t, c, clock, "types-db", "gcp")
			if got := c.LogicalBackupType(); got != tc.logicalByName {
				t.Errorf("LogicalBackupType = %q, want %q", got, tc.logicalByName)
			}
			for _, typ := range tc.ok {
				if _, err := c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: typ, Schedule: "once", ServiceID: svc.ID}); err != nil {
					t.Errorf("%s backup refused: %v", typ, err)
				}
			}
			before := sb.Stats().Count("POST", tc.prefix+"/backups/schedules")
			for typ, advice := range tc.refused {
				_, err := c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: typ, Schedule: "once", ServiceID: svc.ID})
				var fe *api.FieldError
				if !errors.As(err, &fe) || fe.Field != "backup_type" || !strings.Contains(fe.Rule, advice) {
					t.Errorf("%s: err = %v, want a backup_type rule saying %q", typ, err, advice)
				}
				_, err = c.UpdateSchedule(ctx, 1, api.ScheduleUpdate{BackupType: typ})
				if !errors.As(err, &fe) || fe.Field != "backup_type" {
					t.Errorf("edit to %s: err = %v, want a backup_type rule", typ, err)
				}
			}
			if n := sb.Stats().Count("POST", tc.prefix+"/backups/schedules") - before; n != 0 {
				t.Errorf("%d refused backups were sent", n)
			}
			// the sandbox holds the same rule for a client that sends anyway
			for typ, advice := range tc.refused {
				body := `{"backup_type":"` + typ + `","schedule":"once","service_id":"` + svc.ID + `"}`
				req, _ := http.NewRequest(http.MethodPost, url+tc.prefix+"/backups/schedules", strings.NewReader(body))
				req.Header.Set("X-API-Key", sbKey)
				req.Header.Set("Content-Type", "application/json")
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				msg, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(msg), advice) {
					t.Errorf("sandbox took a %s backup under %s: %d %s", typ, tc.prefix, res.StatusCode, msg)
				}
			}
		})
	}
}

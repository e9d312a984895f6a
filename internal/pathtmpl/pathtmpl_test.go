package pathtmpl

import (
	"reflect"
	"testing"
)

func TestBestPrefersLiteralSegments(t *testing.T) {
	items := []string{"/backups/{id}", "/backups/schedules", "/backups/schedules/{id}", "/services/{id}/replication"}
	for _, tc := range []struct {
		path, want string
		params     map[string]string
	}{
		{"/backups/schedules", "/backups/schedules", map[string]string{}},
		{"/backups/dbtgf1", "/backups/{id}", map[string]string{"id": "dbtgf1"}},
		{"/backups/schedules/7/", "/backups/schedules/{id}", map[string]string{"id": "7"}},
		{"/services/dbtgf1/replication", "/services/{id}/replication", map[string]string{"id": "dbtgf1"}},
		{"/services//replication", "", nil},
		{"/services/dbtgf1", "", nil},
	} {
		got, params, ok := Best(tc.path, items, Parse)
		if ok != (tc.want != "") || got != tc.want || !reflect.DeepEqual(params, tc.params) {
			t.Errorf("%s: %q %v %v, want %q %v", tc.path, got, params, ok, tc.want, tc.params)
		}
	}
}
